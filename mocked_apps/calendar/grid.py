"""Date math and layout for the day, week and month views (pure functions, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from .models import Event

HOUR_PX = 48
"""Height of one hour in the day and week time grids."""
DAY_HOURS = (7, 20)
"""Hours always shown in the time grid; it widens to fit earlier or later events."""


@dataclass
class Block:
    """A timed event's piece inside one day column, positioned in pixels and lanes."""

    event: Event
    start: datetime
    end: datetime
    top: int = 0
    height: int = 0
    lane: int = 0
    lanes: int = 1

    @property
    def left(self) -> float:
        """Left edge, percent of the column."""
        return 100 * self.lane / self.lanes

    @property
    def width(self) -> float:
        """Width, percent of the column: overlapping events share it side by side, none covers another."""
        return 100 / self.lanes


@dataclass
class DayColumn:
    """One day of a time grid: its all-day events and its positioned timed blocks."""

    day: date
    all_day: list[Event] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)


@dataclass
class TimeGrid:
    """Day columns plus the hour range they show."""

    columns: list[DayColumn]
    first_hour: int
    last_hour: int

    @property
    def hours(self) -> list[int]:
        return list(range(self.first_hour, self.last_hour))

    @property
    def height(self) -> int:
        return (self.last_hour - self.first_hour) * HOUR_PX

    def offset(self, moment: datetime) -> int | None:
        """Pixels from the top of a column to `moment`'s time of day, None if outside the grid."""
        minutes = (moment.hour - self.first_hour) * 60 + moment.minute
        return minutes * HOUR_PX // 60 if 0 <= minutes < (self.last_hour - self.first_hour) * 60 else None


def midnight(day: date) -> datetime:
    return datetime.combine(day, time())


def week_start(day: date) -> date:
    """The Monday on or before `day`."""
    return day - timedelta(days=day.weekday())


def week_days(day: date) -> list[date]:
    first = week_start(day)
    return [first + timedelta(days=i) for i in range(7)]


def month_weeks(day: date) -> list[list[date]]:
    """Monday-first weeks covering the month of `day`."""
    first = day.replace(day=1)
    last = add_months(first, 1) - timedelta(days=1)
    weeks, cursor = [], week_start(first)
    while cursor <= last:
        weeks.append([cursor + timedelta(days=i) for i in range(7)])
        cursor += timedelta(days=7)
    return weeks


def add_months(day: date, months: int) -> date:
    """Same day-of-month `months` later (clamped to the month's last day)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    for dom in (day.day, 30, 29, 28):
        try:
            return date(year, month, dom)
        except ValueError:
            continue
    raise ValueError(f"no valid day in {year}-{month}")


def is_all_day_like(event: Event) -> bool:
    """All-day events, and timed ones lasting a day or more, go in the all-day strip."""
    return event.all_day or event.end - event.start >= timedelta(days=1)


def on_day(event: Event, day: date) -> bool:
    """Does the event overlap this calendar day?"""
    return event.start < midnight(day + timedelta(days=1)) and event.end > midnight(day)


def events_on(events: list[Event], day: date) -> list[Event]:
    """Events overlapping `day`: all-day first, then by start time."""
    hits = [e for e in events if on_day(e, day)]
    return sorted(hits, key=lambda e: (not is_all_day_like(e), e.start, e.end, e.id))


def time_grid(days: list[date], events: list[Event]) -> TimeGrid:
    """Columns for `days`, with timed events positioned and overlapping ones side by side."""
    columns = []
    for day in days:
        column = DayColumn(day)
        for event in events_on(events, day):
            if is_all_day_like(event):
                column.all_day.append(event)
            else:
                start = max(event.start, midnight(day))
                end = min(event.end, midnight(day + timedelta(days=1)))
                column.blocks.append(Block(event, start, end))
        columns.append(column)
    first, last = _hour_range(columns)
    for column in columns:
        _place(column.blocks, first)
    return TimeGrid(columns, first, last)


def _hour_range(columns: list[DayColumn]) -> tuple[int, int]:
    first, last = DAY_HOURS
    for block in (b for c in columns for b in c.blocks):
        first = min(first, block.start.hour)
        end_hour = 24 if block.end.time() == time() and block.end > block.start else block.end.hour
        last = max(last, end_hour + (1 if block.end.minute and end_hour < 24 else 0))
    return first, last


def _place(blocks: list[Block], first_hour: int) -> None:
    """Pixel position and lane of each block; overlapping blocks share the column width."""
    origin = None
    cluster: list[Block] = []
    cluster_end = None
    lane_ends: list[datetime] = []
    for block in sorted(blocks, key=lambda b: (b.start, b.end)):
        origin = origin or midnight(block.start.date()) + timedelta(hours=first_hour)
        minutes = (block.start - origin).total_seconds() / 60
        length = (block.end - block.start).total_seconds() / 60
        block.top = round(minutes * HOUR_PX / 60)
        block.height = max(round(length * HOUR_PX / 60), 18)
        if cluster_end is not None and block.start >= cluster_end:
            _close(cluster, len(lane_ends))
            cluster, lane_ends = [], []
        lane = next((i for i, end in enumerate(lane_ends) if end <= block.start), None)
        if lane is None:
            lane_ends.append(block.end)
            lane = len(lane_ends) - 1
        else:
            lane_ends[lane] = block.end
        block.lane = lane
        cluster.append(block)
        cluster_end = max(cluster_end, block.end) if cluster_end else block.end
    _close(cluster, len(lane_ends))


def _close(cluster: list[Block], lanes: int) -> None:
    for block in cluster:
        block.lanes = max(lanes, 1)
