"""What bench/batch's raw peers share: the top-level elements of one XML stream, parsed
incrementally with ElementTree."""
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
