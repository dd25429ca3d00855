#!/usr/bin/env python3
"""An agent nobody here wrote: the official MCP Python SDK (PyPI `mcp`, pinned by
scripts/install-test-deps.sh) driving mailclient's /mcp endpoint, for tests/mcp.rs.

    mcp_client.py URL TOKEN STEP [JSON]

Prints one JSON object: what each call answered (or the error it raised). The Rust test
asserts on it. Steps:
  scenario JSON   the whole session: list tools, search, read, draft, send, another's id, resources
  legacy          the same server through the 2025 handshake (initialize)
  snooze JSON     snooze a conversation, list the snoozed, try another user's mail
  wake JSON       wake a snoozed conversation, then try another user's snooze
  connect         only connect and list tools (after revocation: the error)
"""

import asyncio
import json
import sys

import mcp
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def result_of(r):
    """A CallToolResult as plain JSON."""
    return {
        "isError": bool(r.is_error),
        "text": [c.text for c in r.content if getattr(c, "type", "") == "text"],
        "structured": r.structured_content,
    }


async def attempt(coro):
    try:
        return {"ok": await coro}
    except Exception as e:  # the SDK's MCPError, a transport error: the test reads which
        return {"error": type(e).__name__, "message": str(e)[:500], "code": getattr(e, "code", None)}


def client(url, token, mode="auto"):
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    return Client(streamable_http_client(url, http_client=http), mode=mode, read_timeout_seconds=60)


async def scenario(url, token, args):
    out = {"sdk": mcp.__name__}
    async with client(url, token) as c:
        out["protocolVersion"] = c.protocol_version
        out["serverName"] = c.server_info.name if c.server_info else None
        out["instructions"] = c.instructions
        tools = await c.list_tools()
        out["tools"] = sorted(t.name for t in tools.tools)
        found = await c.call_tool("search_mail", {"query": args["search"]})
        out["search"] = result_of(found)
        out["read"] = result_of(await c.call_tool("read_email", {"email_id": args["email_id"]}))
        out["draft"] = result_of(
            await c.call_tool(
                "write_reply_draft",
                {"email_id": args["email_id"], "body": args["draft_body"]},
            )
        )
        sent = await attempt(
            c.call_tool("send_email", {"to": "x@example.test", "subject": "s", "body": "b"})
        )
        if "ok" in sent:
            sent["ok"] = result_of(sent["ok"])
        out["send"] = sent
        out["others"] = result_of(
            await c.call_tool("read_email", {"email_id": args["other_email_id"]})
        )
        out["othersThread"] = result_of(
            await c.call_tool("read_thread", {"thread_id": args["other_thread_id"]})
        )
        out["status"] = result_of(
            await c.call_tool("set_status", {"email_id": args["email_id"], "status": "needs_reply"})
        )
        resources = await c.list_resources()
        out["resources"] = sorted(str(r.uri) for r in resources.resources)
        folders = await c.read_resource("mailclient://folders")
        out["folders"] = json.loads(folders.contents[0].text)
    return out


async def snooze(url, token, args):
    out = {}
    async with client(url, token) as c:
        out["snooze"] = result_of(
            await c.call_tool("snooze_thread", {"email_id": args["email_id"], "until": args["until"]})
        )
        out["list"] = result_of(await c.call_tool("list_snoozed", {}))
        out["others"] = result_of(
            await c.call_tool("snooze_thread", {"email_id": args["other_email_id"], "preset": "tomorrow"})
        )
        out["badTime"] = result_of(
            await c.call_tool("snooze_thread", {"email_id": args["email_id"], "until": "2001-01-01T09:00"})
        )
    return out


async def wake(url, token, args):
    out = {}
    async with client(url, token) as c:
        out["wake"] = result_of(await c.call_tool("wake_thread", {"snooze_id": args["snooze_id"]}))
        out["others"] = result_of(
            await c.call_tool("wake_thread", {"snooze_id": args["other_snooze_id"]})
        )
        out["list"] = result_of(await c.call_tool("list_snoozed", {}))
    return out


async def legacy(url, token):
    out = {}
    async with client(url, token, mode="legacy") as c:
        out["protocolVersion"] = c.protocol_version
        tools = await c.list_tools()
        out["tools"] = sorted(t.name for t in tools.tools)
        out["list"] = result_of(await c.call_tool("list_folder", {"folder": "inbox", "limit": 5}))
    return out


async def connect(url, token):
    async def go():
        async with client(url, token) as c:
            tools = await c.list_tools()
            return sorted(t.name for t in tools.tools)

    return await attempt(go())


def main():
    url, token, step = sys.argv[1], sys.argv[2], sys.argv[3]
    args = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    if step == "scenario":
        out = asyncio.run(scenario(url, token, args))
    elif step == "snooze":
        out = asyncio.run(snooze(url, token, args))
    elif step == "wake":
        out = asyncio.run(wake(url, token, args))
    elif step == "legacy":
        out = asyncio.run(legacy(url, token))
    else:
        out = asyncio.run(connect(url, token))
    print(json.dumps(out, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
