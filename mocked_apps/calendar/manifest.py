"""The calendar app's manifest."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="calendar",
    title="Calendar",
    category="productivity",
    description=(
        "A Google Calendar-like calendar: day, week and month views, an agenda, search, "
        "events on Work/Personal calendars with location and notes, guests invited by email "
        "with Yes/No/Maybe answers, and a list of invitations waiting for a reply."
    ),
    icon="▦",
    imitates="Google Calendar",
    pages=(
        PageSpec(path="/", title="This week", description="Week view of the current week."),
        PageSpec(path="/day", title="Day", description="One day's schedule; ?date=YYYY-MM-DD picks the day."),
        PageSpec(path="/week", title="Week", description="Seven days, Monday first; ?date= picks the week."),
        PageSpec(path="/month", title="Month", description="The month grid; ?date= picks the month."),
        PageSpec(path="/agenda", title="Agenda", description="Upcoming events, two weeks at a time, by day."),
        PageSpec(path="/invitations", title="Invitations", description="Invitations waiting for your answer."),
        PageSpec(path="/search", title="Search", description="Events by title, location or guest (?q=)."),
        PageSpec(path="/event/new", title="New event", description="Create an event and invite guests."),
        PageSpec(path="/event/1", title="Event details", description="An event, its guests and your RSVP."),
    ),
)
