#!/usr/bin/env python3
"""The scanner page in a real browser: Debian's chromium, headless, driven by Playwright.

    scripts/browser-check.py .build/debug/focal [--screenshots docs] [--report out/browser-check.json]

Starts `focal serve` with API keys and a scan folder on a free loopback port, opens its page and
does what a person scanning a contract does, checking each step against the API:

  - the page asks for a key (a wrong one is refused and asked again), and keeps it for the tab;
  - real phone photos (Tests/FocalTests/Resources/phone_photos) are added from disk: the corners
    drawn over each photo are the API's, sit on the photo where the API says, and lie near the
    annotated corners;
  - a corner dragged with the mouse and one nudged with the arrow keys move the page's corners in
    the API, and the flattened preview changes;
  - the enhancement is switched and the preview follows; a page is turned, reordered, deleted;
  - a file that is not an image shows the server's reason;
  - the PDF is downloaded and read with pdfinfo (pages, order and turn), and the JPEGs too;
  - the camera path: chromium's fake camera plays a clip made from a real photo; the outline is
    drawn over the preview and the page is taken by itself once steady and sharp;
  - at a phone's size (390×844, touch) the page fits the screen and a corner can be dragged.

Prints one line per check and a JSON report (first paint, detection round trips), and exits 1 if
any check fails. With --screenshots, writes scanner-desktop.png and scanner-phone.png there.
Needs chromium (scripts/install-deps.sh --browser) and Playwright and Pillow from PyPI (`make
browser-check` installs both in .build/browser-venv).
"""
import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from PIL import Image
from playwright.sync_api import expect, sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = os.path.join(ROOT, "Tests/FocalTests/Resources/phone_photos")
KEY = "key-for-the-browser-check"
PHOTOS_ADDED = ["a4-on-dark-background.webp", "inner-table.webp", "card-on-dark-background.webp"]

failures = []
# Uncaught exceptions in the page's own scripts, from every page opened.
script_errors = []


def watch(page):
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    return page


def check(name, passed, detail=""):
    print(f"{'PASS' if passed else 'FAIL'}  {name}" + (f": {detail}" if detail else ""), flush=True)
    if not passed:
        failures.append(name)
    return passed


class Server:
    """`focal serve` on a free loopback port, with API keys and a scan folder."""

    def __init__(self, focal):
        self.folder = tempfile.mkdtemp(prefix="focal-browser-")
        keys = os.path.join(self.folder, "keys")
        with open(keys, "w") as f:
            f.write(KEY + "\n")
        self.log = open(os.path.join(self.folder, "log"), "w+")
        self.process = subprocess.Popen(
            [focal, "serve", "--port", "0", "--workers", "2", "--api-keys", keys,
             "--scan-dir", os.path.join(self.folder, "scans")],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            self.log.seek(0)
            found = re.search(r"http://[^ \s]+", self.log.read())
            if found:
                self.url = found.group(0).rstrip("/")
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.log.seek(0)
        raise RuntimeError("focal serve did not start:\n" + self.log.read())

    def api(self, method, path):
        request = urllib.request.Request(self.url + path, method=method, headers={"Authorization": "Bearer " + KEY})
        with urllib.request.urlopen(request, timeout=60) as response:
            body = response.read()
            return json.loads(body) if response.headers.get("Content-Type") == "application/json" else body

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def annotated_corners():
    with open(os.path.join(PHOTOS, "corners.json")) as f:
        return {still["file"]: still["quad"] for still in json.load(f)["stills"]}


def camera_clip(folder):
    """A 4-second clip of a real photo (720×1280, 10 fps) as Y4M, for chromium's fake camera;
    and the page's annotated corners in it."""
    name = "a4-on-white-background.webp"
    image = Image.open(os.path.join(PHOTOS, name)).convert("RGB").resize((720, 1280), Image.LANCZOS)
    y, cb, cr = image.convert("YCbCr").split()
    half = (360, 640)
    frame = b"FRAME\n" + y.tobytes() + cb.resize(half, Image.BILINEAR).tobytes() + cr.resize(half, Image.BILINEAR).tobytes()
    path = os.path.join(folder, "clip.y4m")
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W720 H1280 F10:1 Ip A1:1 C420jpeg\n")
        for _ in range(40):
            f.write(frame)
    scale = 720 / 1080
    return path, [[x * scale, y * scale] for x, y in annotated_corners()[name]]


def corner_distance(a, b):
    return max(((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5 for p, q in zip(a, b))


def drawn_corners(page):
    """The corners as the SVG draws them (in the photo's pixels), and where each sits on screen
    relative to the photo, converted back to the photo's pixels."""
    return page.evaluate("""() => {
        const image = document.getElementById('source-image').getBoundingClientRect();
        const natural = document.getElementById('source-image');
        const scale = natural.naturalWidth / image.width;
        return [...document.querySelectorAll('#corner-overlay .corner')].map((handle) => {
            const box = handle.getBoundingClientRect();
            return {
                drawn: [Number(handle.getAttribute('cx')), Number(handle.getAttribute('cy'))],
                onScreen: [(box.x + box.width / 2 - image.x) * scale, (box.y + box.height / 2 - image.y) * scale],
            };
        });
    }""")


# The preview's pixels, read through a canvas (the page's policy lets it fetch nothing but its own
# server, so not its blob URLs): an expression over `image`.
PREVIEW_PIXELS = """(() => {
    const image = document.getElementById('preview-image');
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, canvas.width, canvas.height).data;
})()"""


def preview_digest(page):
    """A digest of the preview's pixels, once it has loaded."""
    expect(page.locator("#preview-image")).to_have_attribute("data-state", "ready", timeout=60_000)
    page.wait_for_function("() => document.getElementById('preview-image').complete")
    pixels = page.evaluate(f"() => Array.from({PREVIEW_PIXELS}.filter((_, i) => i % 97 === 0))")
    return hashlib.sha256(bytes(pixels)).hexdigest()


def wait_for_pages(page, count):
    expect(page.locator("#pages li")).to_have_count(count, timeout=90_000)


def document_id(page):
    return page.evaluate("() => sessionStorage.getItem('focal.document')")


def open_with_key(page, server):
    """Opens the page; a wrong key first, then the right one."""
    page.goto(server.url + "/")
    first_paint = page.evaluate("""() => new Promise((resolve) => {
        const find = () => performance.getEntriesByName('first-contentful-paint')[0];
        if (find()) return resolve(find().startTime);
        new PerformanceObserver(() => find() && resolve(find().startTime)).observe({ type: 'paint', buffered: true });
    })""")
    dialog = page.locator("#key-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    page.fill("#key-input", "not-the-key")
    page.click("#key-submit")
    expect(page.locator("#key-reason")).to_contain_text("refused", timeout=30_000)
    check("a wrong key is refused and the page asks again", dialog.is_visible())
    page.fill("#key-input", KEY)
    page.click("#key-submit")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes", timeout=30_000)
    kept = page.evaluate("() => sessionStorage.getItem('focal.apiKey')")
    check("the key is kept for the tab (sessionStorage) only", kept == KEY
          and page.evaluate("() => localStorage.length") == 0)
    return first_paint


def add_photos(page, server, report):
    annotated = annotated_corners()
    for count, name in enumerate(PHOTOS_ADDED, start=1):
        page.set_input_files("#file-input", os.path.join(PHOTOS, name))
        wait_for_pages(page, count)
        document = server.api("GET", "/v1/documents/" + document_id(page))
        api_corners = document["pages"][-1]["corners"]
        expect(page.locator("#corner-overlay")).to_have_attribute("data-page", document["pages"][-1]["id"], timeout=60_000)
        drawn = drawn_corners(page)
        check(f"{name}: the corners drawn are the API's",
              corner_distance([d["drawn"] for d in drawn], api_corners) < 0.1)
        on_screen = corner_distance([d["onScreen"] for d in drawn], api_corners)
        check(f"{name}: each corner sits on the photo where the API puts it", on_screen < 6,
              f"{on_screen:.1f} px off")
        off = corner_distance(api_corners, annotated[name])
        check(f"{name}: the detected page is the annotated one", off < 0.03 * (1080 ** 2 + 1920 ** 2) ** 0.5,
              f"corners within {off:.0f} px")
    timings = page.evaluate("() => window.focalTimings")
    report["photos"] = timings
    return timings


def edit_corners(page, server):
    page.locator("#pages li button.thumbnail").first.click()
    expect(page.locator("#editor-number")).to_contain_text("1 of")
    before_preview = preview_digest(page)
    before = server.api("GET", "/v1/documents/" + document_id(page))["pages"][0]["corners"]
    handle = page.locator("#corner-overlay .corner").first.bounding_box()
    scale = 1080 / page.locator("#source-image").bounding_box()["width"]
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x + 4 * step, y + 3 * step)
    magnified = page.evaluate("""() => {
        const loupe = document.querySelector('#corner-overlay .loupe');
        return loupe.style.display !== 'none' && loupe.querySelector('image').getAttribute('href').startsWith('blob:');
    }""")
    page.mouse.up()
    check("a magnifier shows the photo round the corner while it moves", magnified)
    page.wait_for_function(
        "(before) => document.getElementById('preview-image').dataset.settings !== before",
        arg=page.locator("#preview-image").get_attribute("data-settings"), timeout=60_000)
    after = server.api("GET", "/v1/documents/" + document_id(page))["pages"][0]["corners"]
    moved = [after[0][0] - before[0][0], after[0][1] - before[0][1]]
    check("dragging the top-left corner moves it in the API",
          abs(moved[0] - 40 * scale) < 3 * scale and abs(moved[1] - 30 * scale) < 3 * scale,
          f"moved {moved[0]:.0f},{moved[1]:.0f} px for 40,30 screen px at {scale:.2f} px each")
    check("the flattened preview changes with the corner", preview_digest(page) != before_preview)
    page.locator("#corner-overlay .corner").nth(1).focus()
    for _ in range(3):
        page.keyboard.press("Shift+ArrowLeft")
    page.wait_for_timeout(1500)
    nudged = server.api("GET", "/v1/documents/" + document_id(page))["pages"][0]["corners"]
    shift = after[1][0] - nudged[1][0]
    check("Shift+arrow keys nudge the selected corner", abs(shift - 30 * scale) < 2 * scale,
          f"{shift:.0f} px for 3 × 10 screen px")


def enhancement_and_turn(page, server):
    before = preview_digest(page)
    page.select_option("#enhance", "bw")
    expect(page.locator("#preview-image")).to_have_attribute("data-settings", re.compile(r"\|bw$"), timeout=60_000)
    enhance = server.api("GET", "/v1/documents/" + document_id(page))["pages"][0]["enhance"]
    check("switching the enhancement changes the page and its preview",
          enhance == "bw" and preview_digest(page) != before, enhance)
    grey_levels = page.evaluate(f"""() => {{
        const data = {PREVIEW_PIXELS};
        let extreme = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] < 40 || data[i] > 215) extreme++;
        return extreme / (data.length / 4);
    }}""")
    check("the black-and-white preview is black and white", grey_levels > 0.95, f"{grey_levels:.1%} of pixels near black or white")
    page.click("#rotate-right")
    expect(page.locator("#preview-image")).to_have_attribute("data-settings", re.compile(r"\|90\|bw$"), timeout=60_000)
    size = page.evaluate("() => [document.getElementById('preview-image').naturalWidth, document.getElementById('preview-image').naturalHeight]")
    check("turning a page turns its preview", size[0] > size[1], f"{size[0]}x{size[1]}")


def reorder_and_delete(page, server):
    ids = [p["id"] for p in server.api("GET", "/v1/documents/" + document_id(page))["pages"]]
    page.click("#pages li:nth-child(3) button[aria-label='Move page 3 earlier']")
    page.wait_for_function("(id) => document.querySelector('#pages li:nth-child(2)').dataset.page === id", arg=ids[2])
    after = [p["id"] for p in server.api("GET", "/v1/documents/" + document_id(page))["pages"]]
    check("moving page 3 earlier reorders the document", after == [ids[0], ids[2], ids[1]])
    # The fourth photo is dropped onto the page, as from a file manager.
    with open(os.path.join(PHOTOS, "low-contrast.webp"), "rb") as f:
        encoded = base64.b64encode(f.read()).decode()
    dropped = page.evaluate_handle("""(encoded) => {
        const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'low-contrast.webp', { type: 'image/webp' }));
        return transfer;
    }""", encoded)
    page.dispatch_event("#pages", "drop", {"dataTransfer": dropped})
    wait_for_pages(page, 4)
    check("a photo dropped onto the page is added", True)
    page.click("#pages li:nth-child(4) button[aria-label='Delete page 4']")
    wait_for_pages(page, 3)
    left = [p["id"] for p in server.api("GET", "/v1/documents/" + document_id(page))["pages"]]
    check("deleting a page removes it", left == after)
    return left


def not_an_image(page):
    check("no error was shown while editing", page.locator("#error").is_hidden(), page.locator("#error-text").inner_text())
    page.set_input_files("#file-input", os.path.join(PHOTOS, "corners.json"))
    expect(page.locator("#error")).to_be_visible(timeout=30_000)
    text = page.locator("#error-text").inner_text()
    check("a file that is not an image shows the server's reason", "not a JPEG" in text, text)
    page.click("#error-close")
    wait_for_pages(page, 3)


def exports(page, folder):
    with page.expect_download(timeout=120_000) as download:
        page.click("#export-pdf")
    pdf = os.path.join(folder, "scan.pdf")
    download.value.save_as(pdf)
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "3", pdf], capture_output=True, text=True).stdout
    pages = re.search(r"^Pages:\s+(\d+)", info, re.M)
    sizes = [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info)]
    check("the PDF has the document's 3 pages", pages is not None and pages.group(1) == "3", info.splitlines()[0] if info else "no pdfinfo")
    # Page 1 (the A4 sheet, turned) is landscape; page 2 (the card, moved up) is wider than tall
    # too; page 3 (the table page) is portrait: the order and the turn as edited.
    shapes = ["landscape" if w > h else "portrait" for w, h in sizes]
    check("the PDF's pages are in the edited order and turn", shapes == ["landscape", "landscape", "portrait"], ", ".join(shapes))
    downloads = []
    page.on("download", lambda d: downloads.append(d))
    page.click("#export-jpegs")
    page.wait_for_function("() => document.body.dataset.busy === 'no'", timeout=120_000)
    page.wait_for_timeout(500)
    check("Download JPEGs gives one JPEG per page", len(downloads) == 3
          and all(d.suggested_filename.endswith(".jpg") for d in downloads), f"{len(downloads)} downloads")


def twelve_megapixels(page, folder, report):
    """A figure, not a check of time: from adding a 12-megapixel phone photo (a real photo
    enlarged to 3024×4032, JPEG) to its corners drawn, upload and detection included."""
    path = os.path.join(folder, "12mp.jpg")
    Image.open(os.path.join(PHOTOS, "a4-on-dark-background.webp")).convert("RGB").resize(
        (3024, 4032), Image.LANCZOS).save(path, quality=92)
    count = page.locator("#pages li").count()
    timings = page.evaluate("() => window.focalTimings.length")
    page.set_input_files("#file-input", path)
    wait_for_pages(page, count + 1)
    page.wait_for_function("(n) => window.focalTimings.length > n", arg=timings, timeout=120_000)
    timing = page.evaluate("() => window.focalTimings.at(-1)")
    check("a 12-megapixel photo's page is found", timing["detected"],
          f"{timing['cornersMilliseconds']:.0f} ms from adding it to its corners drawn, "
          f"{timing['previewMilliseconds']:.0f} ms to its flat preview")
    report["twelveMegapixels"] = {key: round(value) for key, value in timing.items() if key.endswith("Milliseconds")}
    report["twelveMegapixels"]["bytes"] = timing["bytes"]


def tiff(page, folder):
    """A TIFF photo, which chromium cannot show: the editor shows the server's JPEG of it instead."""
    path = os.path.join(folder, "page.tiff")
    Image.open(os.path.join(PHOTOS, "inner-lines.webp")).convert("RGB").save(path)
    count = page.locator("#pages li").count()
    page.set_input_files("#file-input", path)
    wait_for_pages(page, count + 1)
    last = page.locator("#pages li").last.get_attribute("data-page")
    expect(page.locator("#corner-overlay")).to_have_attribute("data-page", last, timeout=60_000)
    shown = page.evaluate("() => document.getElementById('source-image').naturalWidth")
    check("a TIFF photo, which the browser cannot read, is shown from the server's JPEG",
          shown > 0 and page.locator("#error").is_hidden(), f"{shown} px wide")


def camera_path(browser_type, chromium, server, folder, report):
    clip, page_corners = camera_clip(folder)
    browser = browser_type.launch(executable_path=chromium, args=[
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", "--use-file-for-fake-video-capture=" + clip])
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(f"sessionStorage.setItem('focal.apiKey', '{KEY}')")
        page = watch(context.new_page())
        page.goto(server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-ready", "yes", timeout=30_000)
        started = time.time()
        page.click("#camera-start")
        expect(page.locator("#camera-overlay")).to_have_attribute("data-found", "yes", timeout=60_000)
        outlined = time.time() - started
        check("the camera preview outlines the page", True, f"after {outlined:.1f} s")
        wait_for_pages(page, 1)
        taken = time.time() - started
        document = server.api("GET", "/v1/documents/" + document_id(page))
        corners = document["pages"][0]["corners"]
        off = corner_distance(corners, page_corners)
        check("a steady, sharp page is taken by itself, at full resolution",
              document["pages"][0]["detected"] and document["pages"][0]["height"] == 1280 and off < 0.03 * (720 ** 2 + 1280 ** 2) ** 0.5,
              f"after {taken:.1f} s; corners within {off:.0f} px of the annotation")
        page.wait_for_timeout(2000)
        check("the same page is not taken again while it stays in view", page.locator("#pages li").count() == 1)
        report["camera"] = {"outlinedSeconds": round(outlined, 2), "takenSeconds": round(taken, 2)}
        page.click("#camera-stop")
    finally:
        browser.close()


def phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.add_init_script(f"sessionStorage.setItem('focal.apiKey', '{KEY}')")
    page = watch(context.new_page())
    page.goto(server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes", timeout=30_000)
    page.set_input_files("#file-input", os.path.join(PHOTOS, "inner-lines-dark-background.webp"))
    wait_for_pages(page, 1)
    preview_digest(page)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    check("at a phone's size the page fits the screen's width", overflow <= 0, f"{overflow} px too wide")
    before = server.api("GET", "/v1/documents/" + document_id(page))["pages"][0]["corners"][2]
    handle = page.locator("#corner-overlay .corner").nth(2)
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    # A finger, not a mouse: touch events through the DevTools protocol, as a touch screen sends them.
    touch = context.new_cdp_session(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 6):
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x - 4 * step, "y": y - 4 * step}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(1500)
    after = server.api("GET", "/v1/documents/" + document_id(page))["pages"][0]["corners"][2]
    check("at a phone's size a corner can be dragged with a finger", after[0] < before[0] and after[1] < before[1],
          f"{before} -> {after}")
    context.close()


def screenshots(browser, server, folder):
    """The page as a person first sees a document: three photos added, the first page selected,
    its colour preview beside it; at a desktop's size and at a phone's (the whole page)."""
    for name, viewport, options in [("desktop", {"width": 1280, "height": 900}, {}),
                                    ("phone", {"width": 390, "height": 844}, {"is_mobile": True, "has_touch": True})]:
        context = browser.new_context(viewport=viewport, device_scale_factor=1, **options)
        context.add_init_script(f"sessionStorage.setItem('focal.apiKey', '{KEY}')")
        page = context.new_page()
        page.goto(server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-ready", "yes", timeout=30_000)
        for count, photo in enumerate(PHOTOS_ADDED, start=1):
            page.set_input_files("#file-input", os.path.join(PHOTOS, photo))
            wait_for_pages(page, count)
        page.locator("#pages li button.thumbnail").first.click()
        expect(page.locator("#editor-number")).to_contain_text("1 of")
        preview_digest(page)
        page.wait_for_timeout(500)
        page.screenshot(path=os.path.join(folder, f"scanner-{name}.png"), full_page=name == "phone")
        context.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("focal")
    parser.add_argument("--screenshots", help="a folder for scanner-desktop.png and scanner-phone.png")
    parser.add_argument("--report", help="where to write the JSON report")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium"))
    arguments = parser.parse_args()
    started = time.time()
    server = Server(arguments.focal)
    folder = tempfile.mkdtemp(prefix="focal-browser-files-")
    report = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=arguments.chromium)
            context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
            page = watch(context.new_page())
            report["firstPaintMilliseconds"] = round(open_with_key(page, server))
            add_photos(page, server, report)
            edit_corners(page, server)
            enhancement_and_turn(page, server)
            reorder_and_delete(page, server)
            not_an_image(page)
            exports(page, folder)
            twelve_megapixels(page, folder, report)
            tiff(page, folder)
            context.close()
            phone(browser, server)
            if arguments.screenshots:
                screenshots(browser, server, arguments.screenshots)
            browser.close()
            camera_path(playwright.chromium, arguments.chromium, server, folder, report)
        check("no uncaught error in the page's scripts", not script_errors, "; ".join(script_errors[:3]))
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    report["seconds"] = round(time.time() - started, 1)
    report["failures"] = failures
    print(json.dumps(report, indent=1))
    if arguments.report:
        os.makedirs(os.path.dirname(arguments.report) or ".", exist_ok=True)
        with open(arguments.report, "w") as f:
            json.dump(report, f, indent=1)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
