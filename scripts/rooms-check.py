#!/usr/bin/env python3
"""The rooms of Sources/Focal and the doors between them: every arrow points down.

Each folder of the library is a room at a level; a file may use what rooms at lower levels
define, never what a room at its own level or above defines, so that no two rooms depend on each
other. A use is a type, function or global's name (defined in another room) appearing in code,
comments and strings left out. Prints each room's doors, and exits 1 naming every door that
points up or sideways.

    scripts/rooms-check.py            (run by `make test`)
"""
import collections
import glob
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Sources", "Focal")
# Lowest first. A room may use only rooms of lower levels.
LEVELS = [
    ["Support", "Errors"],  # utilities and the error type: depend on nothing of Focal's
    ["Shim"],  # status codes and runtime settings of the C shim
    ["Geometry", "Frame"],  # points and quads; pixels, formats and colours
    ["Filters"],  # image to image: filters, flattening, enhancement
    ["IO", "Sharpness"],  # files and video (letterboxed sequences); the Laplacian (on rectified regions)
    ["Detection"],  # detectors, features, models, the tracker that numbers them
    ["Tracking"],  # documents followed through a stream: scanner, funnel, smoother, cuts, reports
    ["Rendering", "Capture"],  # overlays drawn and written; cameras
]
LEVEL = {room: level for level, rooms in enumerate(LEVELS) for room in rooms}
# What a room defines: its types (at any depth), its top-level functions and globals, and the
# public or package members it declares (a method added to Frame in another room, say). Locals
# and internal members are left out: their names (count, value, open) say nothing about doors.
TYPE = re.compile(r"^[ \t]*(?:(?:public|package|internal|private|fileprivate|final|indirect|@\w+)\s+)*"
                  r"(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", re.M)
TOP_LEVEL = re.compile(r"^(?:(?:public|package|internal|@\w+)\s+)*(?:func|var|let)\s+(\w+)", re.M)
CASE = re.compile(r"^[ \t]*(?:indirect\s+)?case\s+(\w+)", re.M)
# Any declaration at all, only to see that a name is declared in more than one room.
ANY = re.compile(r"\b(?:func|var|let)\s+(\w+)")
# Members every Swift type may have: they say nothing about doors.
STANDARD = {"rawValue", "append", "capacity", "description", "isEmpty", "contains", "remove", "insert"}
API_MEMBER = re.compile(r"^[ \t]*(?:@\w+\s+)*(?:public|package)\s+(?:(?:static|final|mutating|nonisolated)\s+)*"
                        r"(?:func|var|let)\s+(\w+)", re.M)


def room_of(path):
    parts = os.path.relpath(path, ROOT).split(os.sep)
    return parts[0] if len(parts) > 1 else None


def code_of(text):
    """The text without comments and string literals (a name in prose is no door)."""
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"/\*[\s\S]*?\*/", "", text)
    return re.sub(r"//.*", "", text)


def main():
    files = [f for f in glob.glob(os.path.join(ROOT, "**", "*.swift"), recursive=True) if room_of(f)]
    codes = {f: code_of(open(f, encoding="utf-8").read()) for f in files}
    defined = collections.defaultdict(set)
    api_members, types_and_globals = {}, set()
    for f, code in codes.items():
        for pattern in (CASE, ANY):
            for match in pattern.finditer(code):
                defined[match.group(1)].add(room_of(f))
        for pattern in (TYPE, TOP_LEVEL, API_MEMBER):
            for match in pattern.finditer(code):
                defined[match.group(1)].add(room_of(f))
                if pattern is API_MEMBER:
                    api_members[match.group(1)] = room_of(f)
                else:
                    types_and_globals.add(match.group(1))
    # Names that several rooms define (a member `width`, `init`) say nothing about doors.
    names = {name: rooms.pop() for name, rooms in defined.items() if len(rooms) == 1 and len(name) > 3}
    members = {
        name: room for name, room in api_members.items()
        if name in names and name not in types_and_globals and name not in STANDARD
    }
    names = {name: room for name, room in names.items() if name in types_and_globals or name in members}
    unknown = sorted({room_of(f) for f in files} - set(LEVEL))
    if unknown:
        print("rooms-check: rooms without a level: " + ", ".join(unknown) + " (add them to LEVELS)")
        return 1
    doors = collections.defaultdict(lambda: collections.defaultdict(set))
    for f, code in codes.items():
        here = room_of(f)
        # A type or global by its name; a member only where it is accessed (`.rectified(`) and its
        # name is distinctive (`.bytes`, `.first` are everybody's).
        used = {word for word in re.findall(r"\b[A-Za-z_]\w*\b", code) if word in types_and_globals}
        used |= {word for word in re.findall(r"\.([a-z]\w{5,})\b", code) if word in members}
        for word in used:
            there = names.get(word)
            if there and there != here:
                doors[here][there].add(f"{word} ({os.path.basename(f)})")
    wrong = []
    for here in sorted(doors, key=lambda r: (LEVEL[r], r)):
        print(f"{here} -> " + ", ".join(sorted(doors[here], key=lambda r: (LEVEL[r], r))))
        for there, uses in doors[here].items():
            if LEVEL[there] >= LEVEL[here]:
                wrong.append(f"{here} uses {there}, which is not below it: " + ", ".join(sorted(uses)))
    for line in wrong:
        print("rooms-check: " + line)
    print("rooms-check: " + ("every door points down" if not wrong else f"{len(wrong)} door(s) point up or sideways"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
