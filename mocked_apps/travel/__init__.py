"""TripNest: a flights-and-hotels booking app like Expedia or Trip.com (desktop and phone)."""
