#!/usr/bin/python3
"""Writes the colour-management fixtures of PNGImageTests (ColourTests) into this directory.

- adobe-rgb.icc, display-p3.icc: ICC v2 display profiles written here from the published
  primaries and transfer functions (Adobe RGB (1998): gamma 563/256; Display P3: the sRGB
  curve, as a 'para' curve), colorants adapted to D50 with Bradford as ICC requires.
- adobe-rgb.png (iCCP), display-p3.png (iCCP), adobe-rgb.jpg, display-p3.jpg (APP2
  ICC_PROFILE markers): 64x64, an 8x8 grid of flat 8x8 patches, saved by Pillow (JPEG at
  quality 100 without chroma subsampling, so each patch decodes flat).
- expected.json: per file and patch, the stored RGB (the JPEG's as Pillow decodes it) and the
  sRGB it stands for, computed here by formula (decode curve, source matrix, inverse sRGB
  matrix, sRGB curve), independently of Little CMS; the script checks Pillow's ImageCms
  (Little CMS) agrees within one level and records the largest difference.

Run: /usr/bin/python3 gen.py (Debian python3-pil). Deterministic: re-running gives the same files.
"""
import io
import json
import os
import struct

from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
D65 = (0.3127, 0.3290)
D50_XYZ = (0.9642, 1.0, 0.8249)
BRADFORD = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def matvec(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def inverse(m):
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def xyz(x, y):
    return [x / y, 1.0, (1 - x - y) / y]


def rgb_to_xyz_d50(primaries, white=D65):
    """The RGB-to-XYZ matrix for these xy primaries and white, Bradford-adapted to D50."""
    cols = [xyz(*p) for p in primaries]
    m = [[cols[j][i] for j in range(3)] for i in range(3)]
    s = matvec(inverse(m), xyz(*white))
    m = [[m[i][j] * s[j] for j in range(3)] for i in range(3)]
    src, dst = matvec(BRADFORD, xyz(*white)), matvec(BRADFORD, list(D50_XYZ))
    scale = [[dst[i] / src[i] if i == j else 0 for j in range(3)] for i in range(3)]
    adapt = matmul(inverse(BRADFORD), matmul(scale, BRADFORD))
    return matmul(adapt, m)


def s15(v):
    return struct.pack(">i", round(v * 65536))


def s15_round(v):
    return round(v * 65536) / 65536


def tag_xyz(v):
    return b"XYZ " + b"\0" * 4 + b"".join(s15(c) for c in v)


def tag_desc(text):
    t = text.encode() + b"\0"
    return b"desc" + b"\0" * 4 + struct.pack(">I", len(t)) + t + b"\0" * 12 + b"\0" * 67


def tag_text(text):
    return b"text" + b"\0" * 4 + text.encode() + b"\0"


def tag_gamma(g):
    return b"curv" + b"\0" * 4 + struct.pack(">IH", 1, round(g * 256)) + b"\0\0"


SRGB_PARA = (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)


def tag_srgb_para():
    return b"para" + b"\0" * 4 + struct.pack(">HH", 3, 0) + b"".join(s15(v) for v in SRGB_PARA)


def profile(name, matrix, trc):
    tags = [(b"desc", tag_desc(name)), (b"cprt", tag_text("No copyright, use freely")),
            (b"wtpt", tag_xyz(D50_XYZ)),
            (b"rXYZ", tag_xyz([matrix[i][0] for i in range(3)])),
            (b"gXYZ", tag_xyz([matrix[i][1] for i in range(3)])),
            (b"bXYZ", tag_xyz([matrix[i][2] for i in range(3)])),
            (b"rTRC", trc), (b"gTRC", trc), (b"bTRC", trc)]
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for sig, body in tags:
        while len(body) % 4:
            body += b"\0"
        table += sig + struct.pack(">II", offset + len(data), len(body))
        data += body
    size = offset + len(data)
    header = struct.pack(">I4sI4s4s4s", size, b"lcms", 0x02100000, b"mntr", b"RGB ", b"XYZ ")
    header += b"\0" * 12 + b"acsp" + b"\0" * 4 + b"\0" * 4 + b"\0" * 8 + b"\0" * 8 + struct.pack(">I", 0)
    header += b"".join(s15(c) for c in D50_XYZ) + b"\0" * 4 + b"\0" * 16 + b"\0" * 28
    assert len(header) == 128, len(header)
    return header + struct.pack(">I", len(tags)) + table + data


def srgb_decode(v):
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def srgb_encode(v):
    v = min(1.0, max(0.0, v))
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


SPACES = {
    "adobe-rgb": ("Adobe RGB (1998) compatible", [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)],
                  tag_gamma(563 / 256), lambda v: v ** (round(563 / 256 * 256) / 256)),
    "display-p3": ("Display P3 compatible", [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)],
                   tag_srgb_para(), srgb_decode),
}
SRGB_D50 = rgb_to_xyz_d50([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)])


def patches():
    """64 RGB colours: primaries and secondaries at full and half strength, greys, skin and sky tones."""
    base = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255),
            (255, 255, 255), (0, 0, 0), (128, 0, 0), (0, 128, 0), (0, 0, 128), (128, 128, 128),
            (200, 60, 40), (60, 200, 40), (40, 60, 200), (230, 180, 150), (120, 170, 230), (64, 64, 64),
            (192, 192, 192), (16, 16, 16)]
    out = list(base)
    v = 7
    while len(out) < 64:
        v = (v * 1103515245 + 12345) % (1 << 31)
        out.append(((v >> 8) & 255, (v >> 16) & 255, (v >> 3) & 255))
    return out


def expected_srgb(rgb, matrix, decode):
    lin = [decode(c / 255) for c in rgb]
    xyz50 = matvec(matrix, lin)
    out = matvec(inverse(SRGB_D50), xyz50)
    return [round(255 * srgb_encode(c)) for c in out]


def main():
    colours = patches()
    result = {}
    for key, (name, primaries, trc, decode) in SPACES.items():
        matrix = [[s15_round(c) for c in row] for row in rgb_to_xyz_d50(primaries)]
        icc = profile(name, matrix, trc)
        with open(os.path.join(HERE, key + ".icc"), "wb") as f:
            f.write(icc)
        img = Image.new("RGB", (64, 64))
        for i, c in enumerate(colours):
            for y in range(8):
                for x in range(8):
                    img.putpixel((i % 8 * 8 + x, i // 8 * 8 + y), c)
        img.save(os.path.join(HERE, key + ".png"), icc_profile=icc)
        img.save(os.path.join(HERE, key + ".jpg"), quality=100, subsampling=0, icc_profile=icc)
        src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        srgb = ImageCms.createProfile("sRGB")
        for ext in ("png", "jpg"):
            path = os.path.join(HERE, f"{key}.{ext}")
            stored = Image.open(path).convert("RGB")
            managed = ImageCms.profileToProfile(stored, src, srgb, outputMode="RGB")
            rows, worst = [], 0
            for i in range(64):
                x, y = i % 8 * 8 + 4, i // 8 * 8 + 4
                raw = list(stored.getpixel((x, y)))
                want = expected_srgb(raw, matrix, decode)
                lcms = list(managed.getpixel((x, y)))
                worst = max(worst, max(abs(a - b) for a, b in zip(want, lcms)))
                rows.append({"x": x, "y": y, "stored": raw, "srgb": want})
            assert worst <= 1, (path, worst)
            result[f"{key}.{ext}"] = {"patches": rows, "pillow_imagecms_max_difference": worst}
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
