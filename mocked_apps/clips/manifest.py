"""What the clips app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="clips",
    title="Clips",
    category="social",
    description=(
        "A short-video app, mobile-first: a For You and a Following feed, likes, saves, comments, following creators, "
        "sharing a video to contacts with a message, creator profiles, the inbox of shared videos, search by title, "
        "creator or hashtag, and posting or editing a video's title, caption, hashtags and who can watch it."
    ),
    icon="▶",
    imitates="a short-video app (e.g. Douyin, TikTok)",
    pages=(
        PageSpec(path="/", title="For You", description="The feed of public videos; a Following tab for the creators you follow."),
        PageSpec(path="/v/4", title="Video", description="A video with likes, saves, comments and a share button."),
        PageSpec(path="/v/4/share", title="Share", description="Send a video to contacts with a message."),
        PageSpec(path="/u/2", title="Profile", description="A creator's profile: follow, their videos."),
        PageSpec(path="/me", title="Me", description="Your profile: your videos (with who can watch), liked and saved videos."),
        PageSpec(path="/upload", title="Post", description="Post a video: title, caption, hashtags, who can watch, comments."),
        PageSpec(path="/inbox", title="Inbox", description="Videos you shared, by contact."),
        PageSpec(path="/search", title="Search", description="Videos and creators by title, name or hashtag."),
    ),
    consequences={
        "video.posted_at": "the clock when a video is posted",
        "video.cover_hue": "the title of a posted video",
        "video.duration_s": "the clip chosen when posting",
        "video.sound": "the poster's handle",
        "videocomment.posted_at": "the clock when a comment is written",
        "share.sent_at": "the clock when a video is shared",
    },
)
