// The scanner page: one document at a time (its id kept for the tab), pages added from the camera
// or from photos, each page's corners and enhancement edited with a live preview, pages reordered,
// turned and deleted, and the document exported as one PDF or as JPEGs. Everything is kept by the
// server (/v1/documents), so any replica answers and a reload finds the document again.

import { FocalAPI } from "./api.js";
import { LiveCamera } from "./camera.js";
import { CornerEditor } from "./editor.js";

const $ = (id) => document.getElementById(id);
const documentKey = "focal.document";

const api = new FocalAPI(askForKey);
const state = { document: null, selected: null, thumbnails: new Map(), busy: 0 };
const editor = new CornerEditor($("corner-overlay"), (corners) =>
  changeSelected({ corners: corners.flat().map((value) => value.toFixed(1)).join(",") }));
const camera = new LiveCamera($("camera-video"), $("camera-overlay"), api, {
  onHint: (text) => ($("camera-hint").textContent = text),
  onCapture: (blob) => addImages([{ blob, name: "camera.jpg" }]),
  autoCapture: () => $("camera-auto").checked,
});
// Timings for the browser test and for anyone curious: milliseconds from adding a photo to its corners drawn.
window.focalTimings = [];

function askForKey(reason) {
  const dialog = $("key-dialog");
  $("key-reason").textContent = reason;
  $("key-input").value = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok" && $("key-input").value ? $("key-input").value.trim() : null), { once: true });
  });
}

function showError(error) {
  $("error-text").textContent = error.message || String(error);
  $("error").hidden = false;
}

function setStatus(text) { $("status").textContent = text; }

/** Runs an action with the page marked busy, showing any error. */
async function run(action) {
  state.busy++;
  document.body.dataset.busy = "yes";
  try {
    return await action();
  } catch (error) {
    showError(error);
  } finally {
    if (--state.busy === 0) document.body.dataset.busy = "no";
  }
}

async function openDocument() {
  const saved = sessionStorage.getItem(documentKey);
  if (saved) {
    try {
      return setDocument(await api.document(saved));
    } catch (error) {
      if (error.status !== 404) throw error;
    }
  }
  setDocument(await api.createDocument());
}

function setDocument(document) {
  state.document = document;
  sessionStorage.setItem(documentKey, document.id);
  if (!document.pages.some((page) => page.id === state.selected)) state.selected = document.pages.at(-1)?.id ?? null;
  render();
}

function render() {
  const document = state.document;
  const pages = document?.pages ?? [];
  $("page-count").textContent = pages.length ? `(${pages.length})` : "";
  $("pages-empty").hidden = pages.length > 0;
  $("export-pdf").disabled = $("export-jpegs").disabled = pages.length === 0;
  const expires = document ? new Date(document.expires * 1000).toLocaleTimeString() : "";
  setStatus(document ? `${pages.length} page${pages.length === 1 ? "" : "s"} · kept until ${expires}` : "");
  renderPages(pages);
  renderEditor(pages.find((page) => page.id === state.selected)).catch(showError);
}

function renderPages(pages) {
  const list = $("pages");
  list.replaceChildren(...pages.map((page, index) => pageItem(page, index, pages.length)));
}

function pageItem(page, index, count) {
  const item = document.createElement("li");
  item.dataset.page = page.id;
  item.className = page.id === state.selected ? "selected" : "";
  const select = document.createElement("button");
  select.className = "thumbnail";
  select.setAttribute("aria-label", `Page ${index + 1}: edit`);
  const image = document.createElement("img");
  image.alt = `Page ${index + 1}`;
  const key = thumbnailKey(page);
  if (state.thumbnails.has(key)) image.src = state.thumbnails.get(key);
  else loadThumbnail(page, key, image);
  select.append(image);
  select.addEventListener("click", () => { state.selected = page.id; render(); });
  const number = document.createElement("span");
  number.className = "page-number";
  number.textContent = index + 1;
  const buttons = document.createElement("span");
  buttons.className = "page-buttons";
  buttons.append(
    smallButton("◀", `Move page ${index + 1} earlier`, index === 0, () => move(page.id, -1)),
    smallButton("▶", `Move page ${index + 1} later`, index === count - 1, () => move(page.id, 1)),
    smallButton("✕", `Delete page ${index + 1}`, false, () => deletePage(page.id)));
  item.append(select, number, buttons);
  return item;
}

function smallButton(text, label, disabled, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.setAttribute("aria-label", label);
  button.title = label;
  button.disabled = disabled;
  button.addEventListener("click", () => run(action));
  return button;
}

const thumbnailKey = (page) => [page.id, page.corners.flat().join(","), page.enhance, page.rotation].join("|");

async function loadThumbnail(page, key, image) {
  try {
    const url = URL.createObjectURL(await api.pageImage(state.document.id, page.id, { size: 240 }));
    state.thumbnails.set(key, url);
    image.src = url;
  } catch (error) {
    image.alt = "No preview: " + error.message;
  }
}

// The editor shows one page: its photo with the corners, and the flattened preview.
/** The page whose photo the editor shows, and the promise of its being shown. */
let shownSource = null;
let previewRequest = 0;

async function renderEditor(page) {
  try {
    await showInEditor(page);
  } catch (error) {
    // A page deleted (or another chosen) while its images were loading is no error of the person's.
    if (state.selected === page?.id && state.document.pages.some((candidate) => candidate.id === page.id)) throw error;
  }
}

// Each call supersedes the ones before it: after every wait, an older call stops.
let editorCall = 0;

async function showInEditor(page) {
  const call = ++editorCall;
  $("editor").hidden = !page;
  if (!page) return;
  $("preview-image").dataset.state = "loading";
  const pages = state.document.pages;
  $("editor-number").textContent = `${pages.indexOf(page) + 1} of ${pages.length}`;
  $("enhance").value = page.enhance;
  if (shownSource?.id !== page.id) shownSource = { id: page.id, ready: loadSource(page) };
  await shownSource.ready;
  if (call !== editorCall) return;
  editor.show(page.width, page.height, page.corners);
  state.cornersDrawnAt = performance.now();
  $("corner-overlay").dataset.page = page.id;
  await updatePreview(page, page.enhance);
}

/** The longer side, in pixels, of the photo the editor shows: enough to place a corner, light for a phone. */
const editorPhotoSize = 2000;

/** Shows a page's photo from the server, upright and at most editorPhotoSize. */
async function loadSource(page) {
  await showPhoto(page.id, await api.pageSource(state.document.id, page.id, editorPhotoSize));
}

/**
 * Shows `blob` as page `pageID`'s photo; resolves once it is laid out, so that corners never go
 * over another. A photo just added is shown from the device with no download; one this browser
 * cannot read (TIFF) is fetched from the server as JPEG instead.
 */
async function showPhoto(pageID, blob, fallBack = false) {
  const image = $("source-image");
  if (image.src.startsWith("blob:")) URL.revokeObjectURL(image.src);
  const url = URL.createObjectURL(blob);
  image.src = url;
  editor.setPhoto(url);
  try {
    await image.decode();
  } catch (error) {
    // Another page's photo replaced this one while it decoded: not this page's failure.
    if (shownSource?.id !== pageID) return;
    if (!fallBack) throw new Error("The photo of this page cannot be shown.");
    await showPhoto(pageID, await api.pageSource(state.document.id, pageID, editorPhotoSize));
  }
}

/** The flattened page at screen size; a newer request wins over an older one still loading. */
async function updatePreview(page, enhance) {
  const request = ++previewRequest;
  const image = $("preview-image");
  image.dataset.state = "loading";
  const blob = await api.pageImage(state.document.id, page.id, { size: 1000, enhance });
  if (request !== previewRequest) return;
  if (image.src.startsWith("blob:")) URL.revokeObjectURL(image.src);
  image.src = URL.createObjectURL(blob);
  image.dataset.state = "ready";
  image.dataset.settings = thumbnailKey(page) + "|" + enhance;
}

function changeSelected(settings) {
  return run(async () => setDocument(await api.changePage(state.document.id, state.selected, settings)));
}

/** Adds images as pages, one request each so that every photo's corners show as soon as it is read. */
async function addImages(images) {
  for (const { blob, name } of images) {
    await run(async () => {
      const started = performance.now();
      setStatus(`Reading ${name}…`);
      const answer = await api.addPage(state.document.id, blob, name);
      const added = answer.pages.at(-1);
      state.selected = added.id;
      shownSource = { id: added.id, ready: showPhoto(added.id, blob, true) };
      setDocument(answer);
      await renderEditor(added);
      window.focalTimings.push({
        name, bytes: blob.size, detected: added.detected,
        cornersMilliseconds: state.cornersDrawnAt - started, previewMilliseconds: performance.now() - started,
      });
      if (!added.detected) showError(`No page was found in ${name}: the whole photo is kept. Drag the corners onto the page.`);
    });
  }
}

async function move(pageID, step) {
  const order = state.document.pages.map((page) => page.id);
  const from = order.indexOf(pageID);
  order.splice(from, 1);
  order.splice(from + step, 0, pageID);
  setDocument(await api.reorder(state.document.id, order));
}

async function deletePage(pageID) {
  setDocument(await api.deletePage(state.document.id, pageID));
}

/** The page the editor shows. */
function selectedPage() {
  return state.document.pages.find((candidate) => candidate.id === state.selected);
}

function rotate(step) {
  const page = selectedPage();
  return changeSelected({ rotation: String((page.rotation + step + 360) % 360) });
}

function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

async function exportPDF() {
  setStatus("Making the PDF…");
  download(await api.pdf(state.document.id), `scan-${state.document.id.slice(0, 8)}.pdf`);
  render();
}

async function exportJPEGs() {
  const pages = state.document.pages;
  for (const [index, page] of pages.entries()) {
    setStatus(`Page ${index + 1} of ${pages.length}…`);
    download(await api.pageImage(state.document.id, page.id), `scan-${state.document.id.slice(0, 8)}-page-${index + 1}.jpg`);
  }
  render();
}

async function toggleCamera(open) {
  if (!open) {
    camera.stop();
    $("camera").hidden = true;
    return;
  }
  $("camera").hidden = false;
  try {
    await camera.start();
  } catch (error) {
    $("camera").hidden = true;
    throw error;
  }
}

function wire() {
  $("error-close").addEventListener("click", () => ($("error").hidden = true));
  $("file-input").addEventListener("change", (event) => {
    const files = [...event.target.files].map((file) => ({ blob: file, name: file.name }));
    event.target.value = "";
    addImages(files);
  });
  // Photos dropped anywhere on the page are added as pages too.
  document.addEventListener("dragover", (event) => {
    if ([...event.dataTransfer.types].includes("Files")) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    const files = [...event.dataTransfer.files].filter((file) => file.type.startsWith("image/"));
    if (!files.length) return;
    event.preventDefault();
    addImages(files.map((file) => ({ blob: file, name: file.name })));
  });
  $("camera-start").addEventListener("click", () => run(() => toggleCamera(true)));
  $("camera-stop").addEventListener("click", () => run(() => toggleCamera(false)));
  $("camera-shutter").addEventListener("click", () => camera.capture());
  $("enhance").addEventListener("change", (event) => changeSelected({ enhance: event.target.value }));
  $("rotate-left").addEventListener("click", () => rotate(-90));
  $("rotate-right").addEventListener("click", () => rotate(90));
  $("reset-corners").addEventListener("click", () => {
    const page = selectedPage();
    changeSelected({ corners: [0, 0, page.width, 0, page.width, page.height, 0, page.height].join(",") });
  });
  $("export-pdf").addEventListener("click", () => run(exportPDF));
  $("export-jpegs").addEventListener("click", () => run(exportJPEGs));
  $("new-document").addEventListener("click", () => run(async () => {
    sessionStorage.removeItem(documentKey);
    state.selected = null;
    setDocument(await api.createDocument());
  }));
}

wire();
run(openDocument).then(() => (document.body.dataset.ready = "yes"));
