#!/usr/bin/env python3
"""Reads a mail (stdin) as a calendar client would, with parsers nobody here wrote (Python's
`email` and PyPI `icalendar`, pinned by scripts/install-test-deps.sh), and prints what an iTIP
REPLY (RFC 5546 §3.2.3) carried by iMIP (RFC 6047) must hold, for tests/invites.rs."""

import email
import email.policy
import json
import sys

import icalendar

msg = email.message_from_binary_file(sys.stdin.buffer, policy=email.policy.default)
parts = [p for p in msg.walk() if p.get_content_type() == "text/calendar"]
out = {"calendarParts": len(parts), "subject": str(msg["subject"]), "to": str(msg["to"])}
if parts:
    part = parts[0]
    out["contentMethod"] = part.get_param("method")
    out["charset"] = part.get_content_charset()
    out["inAlternative"] = any(
        p.get_content_type() == "multipart/alternative" and part in p.get_payload() for p in msg.walk()
    )
    cal = icalendar.Calendar.from_ical(part.get_payload(decode=True))
    out["method"] = str(cal.get("method"))
    out["version"] = str(cal.get("version"))
    out["prodid"] = str(cal.get("prodid"))
    events = cal.walk("VEVENT")
    out["events"] = len(events)
    ev = events[0]
    attendees = ev.get("attendee")
    attendees = attendees if isinstance(attendees, list) else [attendees] if attendees else []
    out["attendees"] = [
        {"address": str(a), "partstat": a.params.get("PARTSTAT"), "cn": a.params.get("CN")} for a in attendees
    ]
    organizer = ev.get("organizer")
    out["organizer"] = str(organizer) if organizer else None
    out["uid"] = str(ev.get("uid"))
    out["sequence"] = int(ev.get("sequence", 0))
    out["dtstamp"] = ev.decoded("dtstamp").isoformat() if ev.get("dtstamp") else None
    out["dtstart"] = ev.decoded("dtstart").isoformat() if ev.get("dtstart") else None
    out["summary"] = str(ev.get("summary")) if ev.get("summary") else None
    out["comment"] = str(ev.get("comment")) if ev.get("comment") else None
print(json.dumps(out, ensure_ascii=False))
