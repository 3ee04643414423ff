"""Clips families: like a video and comment on it, follow the creator of a video, share a video to contacts
with a message, post a video with its metadata, change who can watch one of your videos, count the comments
under a video; and one cross-app family (share a video with everyone invited to a calendar meeting).

Single-app tasks run on the phone, the app's primary form factor; ground truth comes from the world's
projection. Verifiers read the state dump: a comment or message matches when its words match, case aside.
"""

from __future__ import annotations

import random

from contracts.family import Family, PhoneFamily, Requirements, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as clips
from .projection import project
from .rules import VISIBILITY, parse_tags

__all__ = ["FAMILIES"]

ME = 1
"""The projection's id of the signed-in user's account."""

COMMENTS = ("This is brilliant", "Saving this for the weekend", "Great edit, love the music", "Sending this to the team",
            "How did you film this?", "Part two please")
MESSAGES = ("Thought you would like this", "Watch this before our meeting", "This one is for you", "Saw this and thought of you",
            "Have a look when you have a minute")


def _others_videos(rows: dict) -> list[tuple[dict, dict]]:
    """(video, creator) of the public videos of other people whose title is unique and not a substring of another's."""
    creators = {c["id"]: c for c in rows["creator"]}
    titles = [v["title"] for v in rows["video"]]
    return [(v, creators[v["creator_id"]]) for v in rows["video"]
            if v["creator_id"] != ME and v["visibility"] == "public" and sum(v["title"].lower() in t.lower() for t in titles) == 1]


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def _verify_shares(video_id: int, contact_ids: list[int], message: str) -> str:
    return clips.new_shares_source("_clips_new_shares") + f'''

def verify(final):
    new = _clips_new_shares(final)
    to_video = [s for s in new if s[0] == {video_id!r}]
    return {{
        "sent": sorted({{s[1] for s in to_video}}) == {sorted(contact_ids)!r},
        "message": bool(to_video) and all(" ".join(s[2].split()).lower() == {_words(message)!r} for s in to_video),
        "nothing_else": len(new) == len(to_video) == {len(contact_ids)!r},
    }}
'''


def _share_criteria(title: str, names: list[str], message: str) -> list[Criterion]:
    return [Criterion(id="sent", description=f"'{title}' is sent to {', '.join(names)} and nobody else."),
            Criterion(id="message", description=f"With the message '{message}'."),
            Criterion(id="nothing_else", description="No other video is shared, and nobody gets it twice.", weight=0.5)]


class LikeAndComment(PhoneFamily):
    name = "clips.like_and_comment"
    apps = ("clips",)
    description = "Like a video found by its title and leave a given comment under it."
    difficulty = "easy"
    capabilities = ("search", "navigate", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        video, creator = rng.choice(_others_videos(project(world)))
        text = rng.choice(COMMENTS)
        instruction = say(rng, world, "Like the video \"{title}\" by {who} and comment \"{text}\" on it.",
                          "Find \"{title}\" from {who}, give it a like and leave the comment \"{text}\".",
                          title=video["title"], who=creator["name"], text=text)
        ctx = {"title": video["title"], "video_id": video["id"], "comment": text}
        return self._req(instruction, ctx, [
            Criterion(id="liked", description=f"The video '{video['title']}' is liked."),
            Criterion(id="commented", description=f"A new comment of yours under it says '{text}'."),
            Criterion(id="one_comment", description="Exactly one new comment.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clips.open_video(c["title"]), clips.like(), clips.comment(c["comment"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    after, before = final.state["clips"], final.initial_state["clips"]
    old = {{x["id"] for x in before["videocomment"]}}
    new = [x for x in after["videocomment"] if x["id"] not in old]
    video = next((v for v in after["video"] if v["id"] == {c["video_id"]!r}), None)
    return {{
        "liked": video is not None and video["liked"] is True,
        "commented": any(x["video_id"] == {c["video_id"]!r} and x["creator_id"] == {ME!r}
                         and " ".join(x["body"].split()).lower() == {_words(c["comment"])!r} for x in new),
        "one_comment": len(new) == 1,
    }}
'''


class FollowCreator(PhoneFamily):
    name = "clips.follow_creator"
    apps = ("clips",)
    description = "Follow whoever posted a video named by its title (the creator is not named)."
    difficulty = "medium"
    capabilities = ("search", "navigate", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        choice = pick(rng, [(v, c) for v, c in _others_videos(project(world)) if not c["following"]])
        if choice is None:
            return None
        video, creator = choice
        instruction = say(rng, world, "Follow the account that posted the video \"{title}\".",
                          "I liked \"{title}\" - follow whoever made it.", title=video["title"])
        ctx = {"title": video["title"], "creator": creator["name"], "creator_id": creator["id"]}
        return self._req(instruction, ctx, [Criterion(id="following", description=f"You follow {creator['name']}, who posted '{video['title']}'.")])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clips.open_video(c["title"]), clips.follow_creator(c["creator"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    creator = next((x for x in final.state["clips"]["creator"] if x["id"] == {c["creator_id"]!r}), None)
    return {{"following": creator is not None and creator["following"] is True}}
'''


class ShareVideo(PhoneFamily):
    name = "clips.share_video"
    apps = ("clips",)
    description = "Send a video to two named contacts with a message."
    difficulty = "medium"
    capabilities = ("search", "navigate", "multi_item", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        contacts = [c for c in rows["creator"] if c["is_contact"] and sum(x["name"] == c["name"] for x in rows["creator"]) == 1]
        if len(contacts) < 2:
            return None
        video, _ = rng.choice(_others_videos(rows))
        people = sorted(rng.sample(contacts, 2), key=lambda c: c["id"])
        message = rng.choice(MESSAGES)
        names = [p["name"] for p in people]
        instruction = say(rng, world, "Share the video \"{title}\" with {a} and {b}, with the message \"{msg}\".",
                          "Send \"{title}\" to {a} and {b} in Clips and write \"{msg}\" with it.",
                          title=video["title"], a=names[0], b=names[1], msg=message)
        ctx = {"title": video["title"], "video_id": video["id"], "recipients": names, "recipient_ids": [p["id"] for p in people], "message": message}
        return self._req(instruction, ctx, _share_criteria(video["title"], names, message))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clips.open_video(c["title"]), clips.share_to(c["recipients"], c["message"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_shares(c["video_id"], c["recipient_ids"], c["message"])


_NEW_VIDEOS = (("Morning run by the river", "Six kilometres before work.", "#running #morning"),
               ("Coffee art attempt number three", "Getting closer to a heart.", "#coffee #latteart"),
               ("Desk plant update", "It survived the winter.", "#plants #office"),
               ("Sunset from the office roof", "Worth the stairs.", "#sunset #city"),
               ("Trying the new ramen place", "Rich broth, long queue.", "#food #ramen"))


class PostVideo(PhoneFamily):
    name = "clips.post_video"
    apps = ("clips",)
    description = "Post a camera-roll clip with a title, caption, hashtags, who can watch it and comments on or off."
    difficulty = "medium"
    capabilities = ("form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        title, caption, tags = rng.choice(_NEW_VIDEOS)
        clip = rng.choice([("Clip 1", 15), ("Clip 2", 32), ("Clip 3", 58)])
        visibility = rng.choice(list(VISIBILITY))
        comments = rng.random() < 0.5
        who = {"public": "everyone can watch it", "friends": "only friends can watch it", "private": "only I can see it"}[visibility]
        instruction = say(rng, world, "Post {clip} from my camera roll as \"{title}\" with the caption \"{caption}\" and the hashtags {tags}; "
                          "{who}, and comments {on}.",
                          "New video: {clip}, titled \"{title}\", caption \"{caption}\", hashtags {tags}. Make it so {who}; comments {on}.",
                          clip=clip[0], title=title, caption=caption, tags=tags, who=who, on="on" if comments else "off")
        ctx = {"clip": clip[0], "seconds": clip[1], "title": title, "caption": caption, "hashtags": tags, "tags": parse_tags(tags).split(","),
               "visibility": visibility, "visibility_label": clips.visibility_label(visibility), "allow_comments": comments}
        return self._req(instruction, ctx, [
            Criterion(id="posted", description=f"A new video of yours titled '{title}' from {clip[0]} ({clip[1]} s)."),
            Criterion(id="metadata", description=f"Its caption is '{caption}' and its hashtags are {tags}."),
            Criterion(id="audience", description=f"Who can watch: {clips.visibility_label(visibility)}; comments {'on' if comments else 'off'}."),
            Criterion(id="only_once", description="Exactly one new video.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clips.post_video(c["clip"], c["title"], c["caption"], c["hashtags"], c["visibility_label"], c["allow_comments"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    old = {{v["id"] for v in final.initial_state["clips"]["video"]}}
    new = [v for v in final.state["clips"]["video"] if v["id"] not in old and v["creator_id"] == {ME!r}]
    right = [v for v in new if " ".join(v["title"].split()).lower() == {_words(c["title"])!r} and v["duration_s"] == {c["seconds"]!r}]
    return {{
        "posted": bool(right),
        "metadata": any(" ".join(v["caption"].split()).lower() == {_words(c["caption"])!r}
                        and sorted(t for t in v["tags"].split(",") if t) == {sorted(c["tags"])!r} for v in right),
        "audience": any(v["visibility"] == {c["visibility"]!r} and v["allow_comments"] is {c["allow_comments"]!r} for v in right),
        "only_once": len(new) == 1,
    }}
'''


class ChangeAudience(PhoneFamily):
    name = "clips.change_audience"
    apps = ("clips",)
    description = "Change who can watch one of your own videos (and maybe turn its comments off)."
    difficulty = "easy"
    capabilities = ("navigate", "select_option", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        mine = [v for v in project(world)["video"] if v["creator_id"] == ME]
        video = pick(rng, mine)
        if video is None:
            return None
        target = rng.choice([k for k in VISIBILITY if k != video["visibility"]])
        comments_off = video["allow_comments"] and rng.random() < 0.4
        who = {"public": "everyone", "friends": "friends only", "private": "only me"}[target]
        extra = " and turn its comments off" if comments_off else ""
        instruction = say(rng, world, "Change my video \"{title}\" so that {who} can watch it{extra}.",
                          "Set the audience of my Clips video \"{title}\" to {who}{extra}.", title=video["title"], who=who, extra=extra)
        ctx = {"title": video["title"], "video_id": video["id"], "visibility": target, "visibility_label": clips.visibility_label(target),
               "allow_comments": not comments_off}
        return self._req(instruction, ctx, [
            Criterion(id="audience", description=f"'{video['title']}' can be watched by: {clips.visibility_label(target)}."),
            Criterion(id="comments", description="Its comments are " + ("off." if comments_off else "still allowed.")),
            Criterion(id="same_video", description="Its title and hashtags are unchanged.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clips.open_my_video(c["title"]), clips.edit_visibility(c["visibility_label"], None if c["allow_comments"] else False))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    before = next((v for v in final.initial_state["clips"]["video"] if v["id"] == {c["video_id"]!r}), None)
    after = next((v for v in final.state["clips"]["video"] if v["id"] == {c["video_id"]!r}), None)
    return {{
        "audience": after is not None and after["visibility"] == {c["visibility"]!r},
        "comments": after is not None and after["allow_comments"] is {c["allow_comments"]!r},
        "same_video": after is not None and before is not None and (after["title"], after["tags"]) == (before["title"], before["tags"]),
    }}
'''


class CommentCount(PhoneFamily, AnswerFamily):
    name = "clips.comment_count"
    apps = ("clips",)
    description = "Count the comments under someone's video and answer with the number."
    difficulty = "easy"
    capabilities = ("search", "read_answer")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        counts = {v["id"]: sum(x["video_id"] == v["id"] for x in rows["videocomment"]) for v in rows["video"]}
        commented = [(v, c) for v, c in _others_videos(rows) if 1 <= counts[v["id"]] <= 20]
        choice = pick(rng, [(v, c) for v, c in commented if c["is_contact"]]) or pick(rng, commented)
        if choice is None:
            return None
        video, creator = choice
        instruction = say(rng, world, "How many comments are there under {who}'s video \"{title}\"?",
                          "Check Clips: how many people have commented on \"{title}\" by {who}? Tell me the number.",
                          "Count the comments on {who}'s clip \"{title}\" and tell me how many there are.",
                          who=creator["name"], title=video["title"])
        ctx = {"title": video["title"], "creator": creator["name"], "count": counts[video["id"]]}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {ctx['count']}, the comments under '{video['title']}'.",
                                                         "The answer names no other number."))

    answer = AnswerSpec("count", "count", golden="{count}", sentence="{count} comments")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Go through the creator's profile instead of searching the title; the number in a phrase."""
        return clips.open_video(c["title"]), clips.open_through_creator(c["creator"], c["title"])


class ShareWithMeeting(Family):
    name = "cross.share_clip_with_meeting"
    apps = ("calendar", "clips")
    description = "Share a video with everyone invited to a calendar meeting (the guest list is only in the calendar)."
    difficulty = "hard"
    capabilities = ("cross_app", "navigate", "multi_item", "search", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        clock = world.scenario.clock
        ids = clips.contact_ids(world)
        meetings = [m for m in world.meetings if m.start > clock and sum(x.title == m.title for x in world.meetings) == 1
                    and 1 <= len({m.organizer, *m.attendees} - {world.user}) <= 4]
        meeting = pick(rng, sorted(meetings, key=lambda m: m.start))
        if meeting is None:
            return None
        guests = sorted((world.person(p) for p in {meeting.organizer, *meeting.attendees} - {world.user}), key=lambda p: ids[p.email.lower()])
        rows = project(world)
        if any(sum(c["name"] == g.name for c in rows["creator"]) != 1 for g in guests):
            return None
        video, _ = rng.choice(_others_videos(rows))
        message = f"For {meeting.title}"
        instruction = say(rng, world, "Share the Clips video \"{title}\" with everyone invited to \"{meeting}\" (the calendar has the guest list), "
                          "with the message \"{msg}\".",
                          "Send \"{title}\" in Clips to each person on the \"{meeting}\" invite - check the calendar for who that is. "
                          "Message: \"{msg}\".", title=video["title"], meeting=meeting.title, msg=message)
        names = [g.name for g in guests]
        ctx = {"title": video["title"], "video_id": video["id"], "meeting": meeting.title, "recipients": names,
               "recipient_ids": [ids[g.email.lower()] for g in guests], "message": message}
        return self._req(instruction, ctx, _share_criteria(video["title"], names, message))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), clips.open_app(), clips.open_video(c["title"]), clips.share_to(c["recipients"], c["message"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_shares(c["video_id"], c["recipient_ids"], c["message"])


FAMILIES = (LikeAndComment(), FollowCreator(), ShareVideo(), PostVideo(), ChangeAudience(), CommentCount(), ShareWithMeeting())
