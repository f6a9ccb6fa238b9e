"""Writes a photo-like 4000x3000 RGB PNG: smooth gradients and blobs plus
sensor-like noise, saved by Pillow at its default compression."""
import random
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter

W, H = 4000, 3000
out = sys.argv[1]
random.seed(42)
base = Image.linear_gradient("L").resize((W, H))
r = base
g = base.rotate(90).resize((W, H))
b = Image.radial_gradient("L").resize((W, H))
img = Image.merge("RGB", (r, g, b))
draw = ImageDraw.Draw(img)
for _ in range(60):
    x, y = random.randrange(W), random.randrange(H)
    rad = random.randrange(50, 600)
    col = tuple(random.randrange(256) for _ in range(3))
    draw.ellipse((x - rad, y - rad, x + rad, y + rad), fill=col)
img = img.filter(ImageFilter.GaussianBlur(8))
noise = Image.merge("RGB", [Image.effect_noise((W, H), 10).point(lambda v: v - 128 + 128) for _ in range(3)])
img = ImageChops.add(img, noise, scale=1.0, offset=-128)
img.save(out)
