// The live camera: frames go to /v1/detect at a small size, the page found is outlined over the
// preview, and a page is taken at full resolution once it has held still for `steadyFrames`
// detections and the frame is about as sharp as the sharpest of the last few (the variance of
// the Laplacian, measured here on the small frame).

/** Detections in a row the page must hold still for. Raising it waits for a steadier hand. */
const steadyFrames = 4;
/** Largest corner movement between detections that still counts as still, as a fraction of the frame's diagonal. */
const stillness = 0.015;
/** A frame is sharp enough at this fraction of the sharpest recent frame's Laplacian variance. */
const sharpFraction = 0.8;
/** The longer side, in pixels, of the frames sent for detection. */
const detectionSize = 640;
/** Least time between detections, in milliseconds. */
const detectionInterval = 120;

export class LiveCamera {
  constructor(video, overlay, api, { onHint, onCapture, autoCapture }) {
    Object.assign(this, { video, overlay, api, onHint, onCapture, autoCapture });
    this.running = false;
    this.small = document.createElement("canvas");
  }

  async start() {
    if (!navigator.mediaDevices?.getUserMedia) {
      throw new Error(window.isSecureContext
        ? "This browser gives pages no camera. Add photos instead."
        : "The camera needs the page over https (or on localhost). Add photos instead: on a phone, Add photos offers the camera too.");
    }
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        // The width alone: a height too would make the browser crop a portrait camera to 16:9.
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 } },
        audio: false,
      });
    } catch (error) {
      throw new Error("The camera could not be opened (" + error.name + "): allow the camera, or add photos instead.");
    }
    this.video.srcObject = this.stream;
    await this.video.play();
    this.running = true;
    this.history = [];
    this.sharpness = [];
    this.armed = true;
    this.loop();
  }

  stop() {
    this.running = false;
    this.stream?.getTracks().forEach((track) => track.stop());
    this.video.srcObject = null;
  }

  async loop() {
    while (this.running) {
      const started = performance.now();
      try {
        await this.step();
      } catch (error) {
        this.onHint("Detection failed: " + error.message);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const spent = performance.now() - started;
      if (spent < detectionInterval) await new Promise((resolve) => setTimeout(resolve, detectionInterval - spent));
    }
  }

  async step() {
    const { videoWidth: width, videoHeight: height } = this.video;
    if (!width || !height) return;
    const scale = Math.min(1, detectionSize / Math.max(width, height));
    this.small.width = Math.round(width * scale);
    this.small.height = Math.round(height * scale);
    const context = this.small.getContext("2d", { willReadFrequently: true });
    context.drawImage(this.video, 0, 0, this.small.width, this.small.height);
    const sharpness = laplacianVariance(context.getImageData(0, 0, this.small.width, this.small.height));
    const blob = await new Promise((resolve) => this.small.toBlob(resolve, "image/jpeg", 0.85));
    const found = await this.api.detect(blob);
    if (!this.running) return;
    const corners = found ? found.map(([x, y]) => [x / scale, y / scale]) : null;
    this.draw(corners, width, height);
    this.judge(corners, sharpness, Math.hypot(width, height));
  }

  draw(corners, width, height) {
    this.overlay.width = width;
    this.overlay.height = height;
    const context = this.overlay.getContext("2d");
    context.clearRect(0, 0, width, height);
    this.overlay.dataset.found = corners ? "yes" : "no";
    if (!corners) return;
    context.lineWidth = Math.max(3, width / 200);
    context.strokeStyle = "#2ecc71";
    context.fillStyle = "rgba(46, 204, 113, 0.18)";
    context.beginPath();
    corners.forEach(([x, y], index) => (index ? context.lineTo(x, y) : context.moveTo(x, y)));
    context.closePath();
    context.fill();
    context.stroke();
  }

  /** Decides whether to take the page now, and says why not. */
  judge(corners, sharpness, diagonal) {
    this.sharpness = [...this.sharpness.slice(-19), sharpness];
    this.history = [...this.history.slice(-(steadyFrames - 1)), corners];
    if (!corners) {
      this.missed = (this.missed || 0) + 1;
      if (this.missed >= 2) this.armed = true;
      this.onHint("Hold the page in view.");
      return;
    }
    this.missed = 0;
    if (this.taken && moved(this.taken, corners) > 0.15 * diagonal) this.armed = true;
    const still = this.history.length === steadyFrames && this.history.every((previous, index) =>
      previous && (index === 0 || moved(this.history[index - 1], previous) <= stillness * diagonal));
    const sharp = sharpness >= sharpFraction * Math.max(...this.sharpness);
    if (!this.armed) this.onHint("Page taken. Show the next page.");
    else if (!still) this.onHint("Page found: hold still…");
    else if (!sharp) this.onHint("Hold still: the picture is blurred…");
    else if (this.autoCapture()) {
      this.armed = false;
      this.taken = corners;
      this.capture();
    } else this.onHint("Ready: take the page.");
  }

  /** Takes the current frame at full resolution. */
  async capture() {
    const canvas = document.createElement("canvas");
    canvas.width = this.video.videoWidth;
    canvas.height = this.video.videoHeight;
    canvas.getContext("2d").drawImage(this.video, 0, 0);
    this.overlay.classList.add("flash");
    setTimeout(() => this.overlay.classList.remove("flash"), 250);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
    this.onCapture(blob);
  }
}

/** The largest distance any corner moved. */
function moved(from, to) {
  return Math.max(...from.map(([x, y], index) => Math.hypot(x - to[index][0], y - to[index][1])));
}

/** The variance of the 4-neighbour Laplacian of the image's luma. */
function laplacianVariance(image) {
  const { width, height, data } = image;
  const luma = new Float32Array(width * height);
  for (let index = 0; index < luma.length; index++) {
    luma[index] = 0.299 * data[4 * index] + 0.587 * data[4 * index + 1] + 0.114 * data[4 * index + 2];
  }
  let sum = 0, squares = 0, count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const at = y * width + x;
      const value = luma[at - 1] + luma[at + 1] + luma[at - width] + luma[at + width] - 4 * luma[at];
      sum += value;
      squares += value * value;
      count++;
    }
  }
  return count ? squares / count - (sum / count) ** 2 : 0;
}
