"""A Google Calendar-like app: day, week and month views, events, invitees and RSVPs."""
