#!/usr/bin/env python3
"""A TCP relay on 127.0.0.1 that delays every chunk by DELAY_MS in each direction, so a
loopback server looks like one 2*DELAY_MS of round trip away (netem is not available in every
sandbox; this needs nothing but the stdlib). Order is kept; bandwidth is not limited.
    delay_proxy.py LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS [SECONDS]
Stops by itself after SECONDS (default 1800)."""
import asyncio, sys, time

async def pump(reader, writer, delay):
    queue = asyncio.Queue()
    async def deliver():
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if data is None:
                try:
                    writer.write_eof()
                except OSError:
                    pass
                return
            writer.write(data)
            await writer.drain()
    task = asyncio.ensure_future(deliver())
    try:
        while True:
            data = await reader.read(65536)
            await queue.put((time.monotonic() + delay, data or None))
            if not data:
                break
        await task
    except (ConnectionError, OSError):
        task.cancel()
    finally:
        try:
            writer.close()
        except OSError:
            pass

async def main():
    listen, host, port, delay_ms = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    lifetime = float(sys.argv[5]) if len(sys.argv) > 5 else 1800
    delay = delay_ms / 1000
    async def handle(cr, cw):
        # The TCP handshake costs a round trip too.
        await asyncio.sleep(2 * delay)
        try:
            sr, sw = await asyncio.open_connection(host, port)
        except OSError:
            cw.close(); return
        await asyncio.gather(pump(cr, sw, delay), pump(sr, cw, delay), return_exceptions=True)
    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    async with server:
        await asyncio.sleep(lifetime)

asyncio.run(main())
