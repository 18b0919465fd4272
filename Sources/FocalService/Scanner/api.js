// The service's API as the page uses it: every request carries the tab's API key when there is
// one, a 401 asks the person for a key and tries again, a 503 with Retry-After waits and tries
// again, and any other refusal becomes an APIError carrying the server's reason.

export class APIError extends Error {
  constructor(status, reason) {
    super(reason);
    this.status = status;
  }
}

const keyName = "focal.apiKey";

export class FocalAPI {
  /** askForKey(reason) resolves to a key, or null when the person cancels. */
  constructor(askForKey) {
    this.askForKey = askForKey;
    this.key = sessionStorage.getItem(keyName) || "";
  }

  setKey(key) {
    this.key = key;
    if (key) sessionStorage.setItem(keyName, key);
    else sessionStorage.removeItem(keyName);
  }

  /** Sends a request; resolves to the JSON answer (null for 204) or, with as: "blob", a Blob. */
  async request(method, path, { body, as = "json" } = {}) {
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers();
      if (this.key) headers.set("Authorization", "Bearer " + this.key);
      let response;
      try {
        response = await fetch(path, { method, body, headers });
      } catch (error) {
        throw new APIError(0, "The server cannot be reached (" + error.message + ").");
      }
      if (response.ok) {
        if (response.status === 204) return null;
        return as === "blob" ? response.blob() : response.json();
      }
      const reason = await reasonOf(response);
      if (response.status === 401 && attempt < 3) {
        const key = await this.askForKey(this.key ? "That key was refused: " + reason : reason);
        if (key === null) throw new APIError(401, "No API key was given, so the server refused: " + reason);
        this.setKey(key);
        continue;
      }
      const retryAfter = Number(response.headers.get("Retry-After"));
      if ((response.status === 503 || response.status === 409) && retryAfter > 0 && attempt < 2) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 5) * 1000));
        continue;
      }
      throw new APIError(response.status, reason);
    }
  }

  createDocument() { return this.request("POST", "/v1/documents"); }
  document(id) { return this.request("GET", "/v1/documents/" + id); }
  deleteDocument(id) { return this.request("DELETE", "/v1/documents/" + id); }

  /** Adds one image as a page; the server finds its corners. */
  addPage(id, blob, name) {
    const form = new FormData();
    form.append("image", blob, name || "page.jpg");
    return this.request("POST", "/v1/documents/" + id + "/pages", { body: form });
  }

  changePage(id, page, settings) {
    const query = new URLSearchParams(settings).toString();
    return this.request("PATCH", "/v1/documents/" + id + "/pages/" + page + "?" + query);
  }

  deletePage(id, page) { return this.request("DELETE", "/v1/documents/" + id + "/pages/" + page); }

  reorder(id, pageIDs) {
    return this.request("PUT", "/v1/documents/" + id + "/order?pages=" + pageIDs.join(","));
  }

  /** A page's flat image; size is the longer side in pixels, enhance previews another setting. */
  pageImage(id, page, { size, enhance } = {}) {
    const query = new URLSearchParams();
    if (size) query.set("size", size);
    if (enhance) query.set("enhance", enhance);
    return this.request("GET", "/v1/documents/" + id + "/pages/" + page + "/image?" + query, { as: "blob" });
  }

  /** A page's photo; with size, upright as JPEG with its longer side at most that. */
  pageSource(id, page, size) {
    const query = size ? "?size=" + size : "";
    return this.request("GET", "/v1/documents/" + id + "/pages/" + page + "/source" + query, { as: "blob" });
  }

  pdf(id) { return this.request("GET", "/v1/documents/" + id + "/pdf", { as: "blob" }); }

  /** The page in an image (a camera frame), found quickly: its corners, or null. */
  async detect(blob) {
    const answer = await this.request("POST", "/v1/detect?accuracy=low", { body: blob });
    const feature = answer.frames[0]?.features[0];
    return feature ? feature.corners : null;
  }
}

async function reasonOf(response) {
  try {
    const body = await response.json();
    if (body?.error?.reason) return body.error.reason;
  } catch (_) {
    // Not JSON: a proxy's page, say.
  }
  return "HTTP " + response.status + " " + response.statusText;
}
