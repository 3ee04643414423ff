"""Clips: a deterministic short-video app in the manner of Douyin / TikTok (a feed, likes, comments, follows, sharing to contacts, profiles, uploads)."""
