"""What the task manager declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="projects",
    title="Projects",
    category="productivity",
    description=(
        "A team task manager, desktop-first: projects with boards of columns (To do, In progress, Review, Done); "
        "tasks with an assignee from the team, a due date, a priority, labels and a description; comments; filters by "
        "assignee and label; completing a task; my tasks grouped by due date (overdue, today, next 7 days)."
    ),
    icon="▥",
    imitates="a team task manager (e.g. Asana, Trello, Jira)",
    pages=(
        PageSpec(path="/", title="Home", description="Tasks due soon for me; projects with open, done and overdue counts."),
        PageSpec(path="/my-tasks", title="My tasks", description="My open tasks by due date."),
        PageSpec(path="/projects/1", title="Board", description="A project's columns and cards; filter by assignee and label."),
        PageSpec(path="/projects/1/new", title="New task", description="Title, status, assignee, due date, priority, labels."),
        PageSpec(path="/tasks/1", title="Task", description="Edit a task, comment on it, complete or delete it."),
    ),
    consequences={
        "taskcard.created_at": "the clock when a task is created",
        "taskcard.completed_at": "the clock when a task enters the done column (cleared when it leaves)",
        "taskcard.position": "the column a task is moved to (it goes last)",
        "taskcomment.created_at": "the clock when a comment is posted",
        "taskcomment.author_id": "the signed-in member",
        "tasklabel": "the labels ticked on a task",
    },
)
