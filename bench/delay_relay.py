#!/usr/bin/env python3
"""A delaying TCP relay: the round trip of a real link for bench/shaped_bench.py (this kernel
has no `netem`; the rate limit is `tbf` on a veth pair, this adds the latency).

Every chunk read on one side is written to the other side `--delay-ms` later (one way; a round
trip through the relay costs twice that). It is a delay line, not stop-and-wait: each direction
has a reader that stamps chunks as they arrive and a writer that sends each one when its time
comes, so the data in flight is a link's bandwidth times its delay, as on a real line. Memory
is bounded (--queue-chunks of at most 64 KiB per direction and connection); a full queue stops
the reader, so TCP's own flow control pushes back on the sender.

--netns NAME makes the listening socket inside that network namespace (the shaped side of the
veth pair), while the relay itself, and its connection to the server, stay in the namespace it
was started in (the server listens on loopback there).

It writes its counters as JSON to --stats every 0.2 s and on exit: bytes each way (payload,
what the client and server wrote), connections accepted.

Usage: bench/delay_relay.py --listen 10.213.0.2:9993 --connect 127.0.0.1:1993 --delay-ms 15
         [--netns mcshape-123] [--stats FILE]
"""
import argparse, asyncio, ctypes, json, os, signal, socket

CHUNK = 64 * 1024
CLONE_NEWNET = 0x40000000


def listening_socket(host, port, netns):
    """A listening TCP socket on host:port, made inside netns when given (setns for this thread
    only, then back: a socket keeps the namespace it was made in)."""
    if not netns:
        return socket.create_server((host, port), reuse_port=False, backlog=64)
    libc = ctypes.CDLL(None, use_errno=True)
    with open("/proc/self/ns/net") as home, open(f"/run/netns/{netns}") as target:
        if libc.setns(target.fileno(), CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns into {netns}")
        try:
            return socket.create_server((host, port), backlog=64)
        finally:
            if libc.setns(home.fileno(), CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns back")


class Relay:
    def __init__(self, connect, delay, queue_chunks):
        self.connect, self.delay, self.queue_chunks = connect, delay, queue_chunks
        self.stats = {"up_bytes": 0, "down_bytes": 0, "connections": 0, "open": 0}

    async def pipe(self, reader, writer, key):
        """Copies reader to writer, each chunk `delay` seconds after it arrived."""
        loop = asyncio.get_running_loop()
        queue = asyncio.Queue(self.queue_chunks)

        async def read_side():
            while True:
                data = await reader.read(CHUNK)
                await queue.put((loop.time() + self.delay, data))
                if not data:
                    return

        async def write_side():
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                self.stats[key] += len(data)
                await writer.drain()

        tasks = [asyncio.ensure_future(read_side()), asyncio.ensure_future(write_side())]
        try:
            await asyncio.gather(*tasks)
        finally:
            for t in tasks:
                t.cancel()

    async def handle(self, c_reader, c_writer):
        self.stats["connections"] += 1
        self.stats["open"] += 1
        s_writer = None
        try:
            s_reader, s_writer = await asyncio.open_connection(*self.connect)
            for w in (c_writer, s_writer):
                w.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            up = asyncio.ensure_future(self.pipe(c_reader, s_writer, "up_bytes"))
            down = asyncio.ensure_future(self.pipe(s_reader, c_writer, "down_bytes"))
            # Either side failing (a reset) ends both; a clean EOF each way ends each pipe.
            done, pending = await asyncio.wait([up, down], return_when=asyncio.FIRST_EXCEPTION)
            for t in pending:
                t.cancel()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self.stats["open"] -= 1
            for w in (c_writer, s_writer):
                if w is not None:
                    w.close()


def write_stats(path, stats):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(stats, f)
    os.replace(tmp, path)


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen", required=True)
    ap.add_argument("--connect", required=True)
    ap.add_argument("--delay-ms", type=float, required=True, help="one way")
    ap.add_argument("--netns")
    ap.add_argument("--stats")
    ap.add_argument("--queue-chunks", type=int, default=256)
    args = ap.parse_args()
    lhost, lport = args.listen.rsplit(":", 1)
    chost, cport = args.connect.rsplit(":", 1)
    relay = Relay((chost, int(cport)), args.delay_ms / 1000, args.queue_chunks)
    sock = listening_socket(lhost, int(lport), args.netns)
    server = await asyncio.start_server(relay.handle, sock=sock)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    print("ready", flush=True)
    async with server:
        while not stop.is_set():
            if args.stats:
                write_stats(args.stats, relay.stats)
            try:
                await asyncio.wait_for(stop.wait(), 0.2)
            except asyncio.TimeoutError:
                pass
    if args.stats:
        write_stats(args.stats, relay.stats)


if __name__ == "__main__":
    asyncio.run(main())
