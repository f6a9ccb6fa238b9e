"""What bench/batch's raw peers share: the top-level elements of one XML stream, parsed
incrementally with ElementTree."""
import asyncio
import xml.etree.ElementTree as ET


class Stream:
    """Top-level elements of one XML stream, parsed incrementally."""

    def __init__(self, reader):
        self.reader, self.parser, self.depth, self.ready = reader, ET.XMLPullParser(("start", "end")), 0, []

    async def next(self):
        while not self.ready:
            data = await self.reader.read(65536)
            if not data:
                raise ConnectionError("stream closed")
            self.parser.feed(data)
            for event, element in self.parser.read_events():
                if event == "start":
                    self.depth += 1
                else:
                    self.depth -= 1
                    if self.depth == 1:
                        self.ready.append(element)
        return self.ready.pop(0)


def run_workers(worker, users, jobs):
    """Runs `jobs` copies of `worker(queue, results)` over the (index, user) queue, prints how many
    accounts were created and returns the exit status (0 when every one was)."""
    async def main():
        queue = asyncio.Queue()
        for item in enumerate(users):
            queue.put_nowait(item)
        results = []
        await asyncio.gather(*(worker(queue, results) for _ in range(jobs)))
        return sum(results)

    created = asyncio.run(main())
    print(created)
    return 0 if created == len(users) else 1
