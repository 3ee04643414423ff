"""What the courses app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="courses",
    title="Courses",
    category="education",
    description=(
        "A learning management system, desktop-first: a dashboard of this term's courses and what is due, each course's modules "
        "with readings and assignments, assignment groups with weights, submitting a Drive file or a text entry (late after the "
        "due date, closed after the lock date, attempts kept), grades with the weighted total and letter, announcements."
    ),
    icon="✎",
    imitates="a learning management system (e.g. Canvas, Moodle)",
    pages=(
        PageSpec(path="/", title="Dashboard", description="Course cards, what is due, recent announcements."),
        PageSpec(path="/courses/1", title="Modules", description="A course's modules and their items; mark readings done."),
        PageSpec(path="/courses/1/assignments", title="Assignments", description="A course's assignments by weighted group."),
        PageSpec(path="/assignments/3", title="Assignment", description="Details, attempts and the submission form."),
        PageSpec(path="/courses/1/grades", title="Grades", description="Scores, group percentages, the weighted total."),
        PageSpec(path="/courses/1/announcements", title="Announcements", description="A course's announcements."),
    ),
    view_state=("announcement.read",),
    consequences={
        "submission.submitted_at": "the clock when work is handed in",
        "submission.attempt": "the attempts before it",
        "submission.late": "the due date and the clock when it is handed in",
        "submission.file_name": "the Drive file chosen",
    },
)
