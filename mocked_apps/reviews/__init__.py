"""Reviews: a deterministic local-reviews app in the manner of Dianping (businesses by category with hours and price level, reviews with stars and photos, bookmark lists, table reservations)."""
