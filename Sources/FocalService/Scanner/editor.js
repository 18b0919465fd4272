// The corner editor: the page's photo with its four corners drawn over it as an SVG whose
// coordinates are the photo's own pixels, so a corner's cx and cy are what the API takes. A corner
// is dragged with a mouse, a finger or a pen (pointer events), or focused with Tab and nudged with
// the arrow keys. onChange(corners) is called when a drag or a run of key presses ends.

const svgNS = "http://www.w3.org/2000/svg";
const names = ["top-left", "top-right", "bottom-right", "bottom-left"];

export class CornerEditor {
  constructor(svg, onChange) {
    this.svg = svg;
    this.onChange = onChange;
    this.corners = [];
    this.width = 1;
    this.height = 1;
    this.outline = document.createElementNS(svgNS, "polygon");
    this.outline.setAttribute("class", "outline");
    this.svg.append(this.outline);
    this.handles = names.map((name, index) => this.makeHandle(name, index));
    this.keyTimer = null;
    this.makeLoupe();
  }

  /** The magnifier shown while a corner moves: the photo around it, enlarged, beside the finger. */
  makeLoupe() {
    const clip = document.createElementNS(svgNS, "clipPath");
    clip.id = "loupe-clip";
    this.loupeCircle = document.createElementNS(svgNS, "circle");
    clip.append(this.loupeCircle);
    this.loupe = document.createElementNS(svgNS, "g");
    this.loupe.setAttribute("class", "loupe");
    this.loupe.setAttribute("clip-path", "url(#loupe-clip)");
    this.loupe.setAttribute("aria-hidden", "true");
    this.loupe.style.display = "none";
    this.loupeImage = document.createElementNS(svgNS, "image");
    this.loupeRing = document.createElementNS(svgNS, "circle");
    this.loupeRing.setAttribute("class", "loupe-ring");
    const cross = document.createElementNS(svgNS, "path");
    cross.setAttribute("class", "loupe-cross");
    this.loupeCross = cross;
    this.loupe.append(this.loupeImage, cross);
    this.svg.append(clip, this.loupe, this.loupeRing);
    this.hideLoupe();
  }

  /** Uses `url` (the photo) for the magnifier. */
  setPhoto(url) { this.loupeImage.setAttribute("href", url); }

  showLoupe(index) {
    const [x, y] = this.corners[index];
    const radius = 3 * this.radius, zoom = 3;
    // Up and towards the middle of the photo, where neither the finger nor the edge hides it.
    const cx = x + (x < this.width / 2 ? 1 : -1) * 2.2 * radius;
    const cy = Math.max(radius, y - 2.2 * radius);
    for (const circle of [this.loupeCircle, this.loupeRing]) {
      circle.setAttribute("cx", cx);
      circle.setAttribute("cy", cy);
      circle.setAttribute("r", radius);
    }
    this.loupeImage.setAttribute("width", this.width);
    this.loupeImage.setAttribute("height", this.height);
    this.loupeImage.setAttribute("transform", `translate(${cx} ${cy}) scale(${zoom}) translate(${-x} ${-y})`);
    const arm = radius / 4;
    this.loupeCross.setAttribute("d", `M${cx - arm} ${cy}H${cx + arm}M${cx} ${cy - arm}V${cy + arm}`);
    this.loupe.style.display = this.loupeRing.style.display = "";
  }

  hideLoupe() { this.loupe.style.display = this.loupeRing.style.display = "none"; }

  makeHandle(name, index) {
    const handle = document.createElementNS(svgNS, "circle");
    handle.setAttribute("class", "corner");
    handle.setAttribute("tabindex", "0");
    handle.setAttribute("role", "slider");
    handle.setAttribute("aria-label", name + " corner");
    handle.dataset.corner = name;
    handle.addEventListener("pointerdown", (event) => this.drag(event, index));
    handle.addEventListener("keydown", (event) => this.nudge(event, index));
    this.svg.append(handle);
    return handle;
  }

  /** Shows corners ([[x, y] × 4]) over a photo of width × height pixels. */
  show(width, height, corners) {
    this.width = width;
    this.height = height;
    this.corners = corners.map((point) => [point[0], point[1]]);
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    // Handles keep their size on screen whatever the photo's resolution.
    this.radius = Math.max(width, height) / 40;
    this.draw();
  }

  draw() {
    this.outline.setAttribute("points", this.corners.map((point) => point.join(",")).join(" "));
    this.handles.forEach((handle, index) => {
      const [x, y] = this.corners[index];
      handle.setAttribute("cx", x.toFixed(1));
      handle.setAttribute("cy", y.toFixed(1));
      handle.setAttribute("r", this.radius.toFixed(1));
      handle.setAttribute("aria-valuetext", `${Math.round(x)}, ${Math.round(y)}`);
    });
  }

  /** The photo's pixel under a pointer event. */
  pointIn(event) {
    const matrix = this.svg.getScreenCTM().inverse();
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
    return [this.clampX(point.x), this.clampY(point.y)];
  }

  clampX(x) { return Math.min(Math.max(x, 0), this.width); }
  clampY(y) { return Math.min(Math.max(y, 0), this.height); }

  drag(event, index) {
    event.preventDefault();
    const handle = this.handles[index];
    handle.focus();
    handle.setPointerCapture(event.pointerId);
    handle.classList.add("dragging");
    const move = (moveEvent) => {
      this.corners[index] = this.pointIn(moveEvent);
      this.draw();
      this.showLoupe(index);
    };
    this.showLoupe(index);
    const end = () => {
      this.hideLoupe();
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", end);
      handle.removeEventListener("pointercancel", end);
      handle.classList.remove("dragging");
      this.onChange(this.corners);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", end);
    handle.addEventListener("pointercancel", end);
  }

  nudge(event, index) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!steps) return;
    event.preventDefault();
    // A screen pixel's worth of photo, or ten with Shift.
    const scale = this.width / this.svg.getBoundingClientRect().width || 1;
    const step = (event.shiftKey ? 10 : 1) * scale;
    const [x, y] = this.corners[index];
    this.corners[index] = [this.clampX(x + steps[0] * step), this.clampY(y + steps[1] * step)];
    this.draw();
    // A run of presses is one change.
    clearTimeout(this.keyTimer);
    this.keyTimer = setTimeout(() => this.onChange(this.corners), 400);
  }
}
