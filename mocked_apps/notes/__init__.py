"""Notes: a deterministic social-notes app in the manner of Xiaohongshu / RedNote (notes with images, tags and places, collections, comments, follows, search)."""
