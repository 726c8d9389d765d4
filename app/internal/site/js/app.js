// backoffcalc's app.js, served in place of go-app's (app/scripts.go fills in the env, wasm and worker values).
// It differs from go-app's in what a visitor sees:
// - Only the page's own inputs matter: no query key (go-app's "wasm=false") and no user agent
//   (go-app skips anything matching "bot") keeps the calculator from loading.
// - The service worker installs a new version whole (app-worker.js); the page says that it is
//   ready and offers to switch (go-app calls goappOnUpdate, the page shows a notice).
// - A failed load says what failed, in words, with a button to try again, which reloads the
//   page so that its files come from one version; the page under it, with the server's
//   numbers, stays readable.
// - app.wasm is compiled from the fetched response itself, which lets Chromium cache the
//   compiled code (go-app copies it through a Response of its own to count bytes).
"use strict";

var goappNav = function () {};
var goappOnUpdate = function () {};
var goappOnAppInstallChange = function () {};

const goappEnv = {{env}};
const backoffcalcWasm = {{wasm}};
const backoffcalcWorker = {{worker}};
// Whether a newer version is ready: the page reads it when it starts, as goappOnUpdate does
// nothing until the wasm has set it.
var backoffcalcUpdateReady = false;

function goappGetenv(k) {
  return goappEnv[k];
}

function goappIsAppInstalled() {
  return window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
}

function goappIsAppInstallable() {
  return false;
}

function backoffcalcStart() {
  const sw = navigator.serviceWorker;
  if (sw) {
    // A newer version took over this page's worker (app-worker.js): this page still runs the
    // version it loaded, whole, and says that the newer one is ready. On a first visit there
    // is no controller, and a first install takes none over.
    sw.addEventListener("controllerchange", () => {
      backoffcalcUpdateReady = true;
      goappOnUpdate();
    });
    sw.register(backoffcalcWorker).catch((err) => {
      // The page works without the worker, only not offline.
      console.warn("backoffcalc: no service worker, so no offline use:", err);
    });
  }
  backoffcalcLoad();
}

// backoffcalcSwitchVersion is what the page's notice calls: the newer version is active by now,
// and a reload runs it.
function backoffcalcSwitchVersion() {
  window.location.reload();
}

// backoffcalcLoader is go-app's loader, which app.css keeps to a line in the page's flow. It is
// kept here because it does not stay in the document: see backoffcalcStatus.
const backoffcalcLoader = document.getElementById("app-wasm-loader");

// backoffcalcStatus shows text in the loading line, with a button to try again when retry is
// set. The line goes at the top of the page (#app), in its flow, so that it covers none of the
// numbers: while the server's page shows (its numbers are this link's), at the top of that page,
// which the wasm's first render replaces, line and all; after a crash, at the top of the wasm's.
function backoffcalcStatus(text, retry) {
  const loader = backoffcalcLoader;
  const label = loader && loader.querySelector("#app-wasm-loader-label");
  const icon = loader && loader.querySelector("#app-wasm-loader-icon");
  if (!loader || !label) {
    return;
  }
  const page = document.getElementById("app");
  if (page && loader.parentElement !== page) {
    page.prepend(loader);
  }
  loader.hidden = false;
  loader.setAttribute("role", "status");
  if (icon) {
    icon.alt = "";
    icon.classList.toggle("goapp-spin", !retry);
  }
  label.textContent = text;
  document.documentElement.classList.toggle("wasm-failed", Boolean(retry));
  if (retry) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "app-wasm-retry";
    button.textContent = "Try again";
    button.addEventListener("click", retry, { once: true });
    label.append(" ", button);
  }
}

// What a person types into the server's page before the wasm runs, in order, one entry per run
// of edits to a field: the wasm applies it as it starts (app/handover.go), so that nothing typed
// is lost. Only fields named after a query key whose value is what they hold count: text fields
// and selects.
const backoffcalcTyped = [];
// Where the focus was when the wasm took over: its first render replaces the server's page.
let backoffcalcFocus = null;

function backoffcalcRecord(event) {
  const field = event.target;
  if (!backoffcalcTypedField(field) || !field.closest('#app[data-render="server"]')) {
    return;
  }
  const last = backoffcalcTyped[backoffcalcTyped.length - 1];
  if (last && last.key === field.name) {
    last.value = field.value;
    return;
  }
  backoffcalcTyped.push({ key: field.name, value: field.value });
}
document.addEventListener("input", backoffcalcRecord, true);
document.addEventListener("change", backoffcalcRecord, true);

// A click on Import in the server's page, before the wasm runs, whose page replaces it: the wasm
// imports the pasted text once it has painted (app/import.go's importClickedBefore), and the
// page says so meanwhile, where the click did nothing.
let backoffcalcImportClicked = false;
document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element) || !event.target.closest('#app[data-render="server"] #import-button')) {
    return;
  }
  backoffcalcImportClicked = true;
  const said = document.querySelector('#app[data-render="server"] #import-said p');
  if (said) {
    said.textContent = "The calculator is loading: it imports the text as soon as it has.";
  }
}, true);

// backoffcalcTakeImportClick is the wasm's call as it takes over: whether Import was clicked.
function backoffcalcTakeImportClick() {
  const clicked = backoffcalcImportClicked;
  backoffcalcImportClicked = false;
  return clicked;
}

function backoffcalcTypedField(field) {
  return Boolean(field.name) && (field.tagName === "SELECT" ||
    (field.tagName === "INPUT" && field.type !== "checkbox" && field.type !== "radio"));
}

// backoffcalcHandOver is the wasm's call as it starts, before its first render, while the
// server's page is still in the document: it returns what was typed and notes where the focus
// and the caret are, for backoffcalcRestoreFocus.
function backoffcalcHandOver() {
  document.removeEventListener("input", backoffcalcRecord, true);
  document.removeEventListener("change", backoffcalcRecord, true);
  const page = document.querySelector('#app[data-render="server"]');
  if (!page) {
    return [];
  }
  // Typed before this script ran, on a slow load: a text field's value differs from the one
  // the server wrote (text fields have autocomplete off, so the browser restores none).
  const early = [];
  for (const field of page.querySelectorAll("input[name]")) {
    if (backoffcalcTypedField(field) && field.value !== field.defaultValue &&
      !backoffcalcTyped.some((t) => t.key === field.name)) {
      early.push({ key: field.name, value: field.value });
    }
  }
  const active = document.activeElement;
  if (active && active.id && active !== page && page.contains(active)) {
    backoffcalcFocus = { id: active.id, start: active.selectionStart, end: active.selectionEnd, direction: active.selectionDirection };
  }
  return early.concat(backoffcalcTyped);
}

// backoffcalcRestoreFocus is the wasm's call once its page is in the document, and again once the
// sections below the first screen are: the element that had the focus in the server's page gets
// it back, with its caret, unless the focus has moved on.
function backoffcalcRestoreFocus() {
  const was = backoffcalcFocus;
  const element = was && document.getElementById(was.id);
  if (!element || element.closest("[inert]")) {
    return; // in a part the wasm renders after its first paint: it calls again then
  }
  backoffcalcFocus = null;
  if (document.activeElement && document.activeElement !== document.body) {
    return;
  }
  element.focus({ preventScroll: true });
  if (typeof was.start === "number" && typeof element.setSelectionRange === "function") {
    try {
      element.setSelectionRange(was.start, was.end, was.direction);
    } catch {
      // A field without a caret (a select, a number field): the focus is enough.
    }
  }
}

// backoffcalcPin is the wasm's call once the sections below the first screen are in the document,
// for the section that the link's fragment names, and a link of the table of contents' or the
// skip link's, for the element it moves the focus to: it scrolls the element's section to the top
// and holds it there (backoffcalcHold).
function backoffcalcPin(id) {
  const target = document.getElementById(id);
  if (!target) {
    return;
  }
  const section = target.closest("section") || target;
  section.scrollIntoView();
  backoffcalcHold(section);
}

// backoffcalcHold keeps an element where it is on the screen while the page is still filling in,
// until the person scrolls, clicks or touches, or the fragment changes: the section a link opens
// at, then whatever takes the keyboard's focus. A section above it grows as its results arrive
// (the herd's collapses while they are computed and grows back), and the browser's scroll
// anchoring does not hold what is in view through that: with the section near the end of the
// page, too short then to bring it to the top, the growth pushed it off the screen, and so it
// did a button the person had tabbed to. Every size change of the page, or of a section, puts it
// back. A scroll is the person's when the element kept its place in the page; else the page
// moved under the view (the browser's anchoring can scroll before the size changes are
// observed), and it is put back. Focus moves the hold to the element focused, where it is then.
let backoffcalcHoldEnd = null;

function backoffcalcHold(element) {
  if (backoffcalcHoldEnd) {
    backoffcalcHoldEnd();
  }
  if (!window.ResizeObserver) {
    return;
  }
  const ends = ["wheel", "touchstart", "pointerdown", "hashchange"];
  let target = element, top = 0, at = 0, place = 0; // where it is on the screen and in the page
  const note = () => {
    top = target.getBoundingClientRect().top;
    at = window.scrollY;
    place = top + at;
  };
  const keep = () => {
    if (!target.isConnected) {
      return end();
    }
    const off = target.getBoundingClientRect().top - top;
    if (Math.abs(off) > 1) {
      window.scrollBy(0, off);
    }
    note();
  };
  const moved = () => {
    if (!target.isConnected) {
      return end();
    }
    if (Math.abs(target.getBoundingClientRect().top + window.scrollY - place) > 1) {
      return keep();
    }
    if (Math.abs(window.scrollY - at) > 1) {
      end();
    }
  };
  const focused = (event) => {
    if (event.target instanceof Element) {
      target = event.target;
      note();
    }
  };
  const observer = new ResizeObserver(keep);
  const end = () => {
    observer.disconnect();
    for (const type of ends) {
      window.removeEventListener(type, end, true);
    }
    window.removeEventListener("scroll", moved);
    document.removeEventListener("focusin", focused, true);
    if (backoffcalcHoldEnd === end) {
      backoffcalcHoldEnd = null;
    }
  };
  backoffcalcHoldEnd = end;
  note();
  for (const type of ends) {
    window.addEventListener(type, end, { capture: true, passive: true });
  }
  window.addEventListener("scroll", moved, { passive: true });
  document.addEventListener("focusin", focused, true);
  observer.observe(document.body);
  for (const section of document.querySelectorAll("#results > section")) {
    observer.observe(section);
  }
}

// Without a hold, the keyboard's focus is held where it lands: a control tabbed to, or pressed
// with a key, below a section that is still computing stays in view as that section grows. A
// pointer ends a hold, and its focus (where the pointer is) starts none.
let backoffcalcKeyAt = -Infinity;
document.addEventListener("keydown", () => { backoffcalcKeyAt = performance.now(); }, true);
document.addEventListener("focusin", (event) => {
  if (!backoffcalcHoldEnd && performance.now() - backoffcalcKeyAt < 1000 && event.target instanceof Element) {
    backoffcalcHold(event.target);
  }
}, true);

// backoffcalcCopyLater is the wasm's call inside a copy button's click, for a text that the
// engine's worker is still writing: a browser lets a page write the clipboard only inside a
// click. It asks for the write at once, with the text to come: the wasm calls give(text) or
// fail(message) once the worker has replied, and done settles as the write does. Where
// ClipboardItem is missing, the text is written once given, which a browser may refuse out of
// the click. null without a clipboard (a page that is not a secure context).
function backoffcalcCopyLater() {
  const clip = navigator.clipboard;
  if (!clip) {
    return null;
  }
  let give, fail;
  const text = new Promise((resolve, reject) => {
    give = resolve;
    fail = (message) => reject(new Error(message));
  });
  const done = typeof ClipboardItem === "function"
    ? clip.write([new ClipboardItem({ "text/plain": text.then((t) => new Blob([t], { type: "text/plain" })) })])
    : text.then((t) => clip.writeText(t));
  return { done, give, fail };
}

// backoffcalcPrewrite is the wasm's call before go-app starts, on HTML made for another query
// (guard.js marked it stale-html): it writes this link's first screen, which the page's own code
// computed (app/prewrite_js.go), into that HTML in one task, and marks it as this link's, which
// app.css then shows while the rest stays hidden until the wasm's render. parts are element ids
// each followed by its markup, fields the form's inputs' names each followed by its value, open
// the answer groups of the fit block to open. Each field's default becomes its value, so that
// backoffcalcHandOver tells what is typed from here on. It writes nothing, and returns false,
// unless the page has every one of them.
function backoffcalcPrewrite(parts, fields, open) {
  const page = document.querySelector('#app[data-render="server"]');
  const form = page && page.querySelector("form#inputs");
  if (!form) {
    return false;
  }
  const elements = [];
  for (let i = 0; i < parts.length; i += 2) {
    const element = document.getElementById(parts[i]);
    if (!element || !page.contains(element)) {
      return false;
    }
    elements.push(element);
  }
  // By name: the form's namedItem also finds ids (the preset's fieldset is #preset).
  const byName = new Map();
  for (const field of form.elements) {
    if (backoffcalcTypedField(field) && !byName.has(field.name)) {
      byName.set(field.name, field);
    }
  }
  // The form shows a limiter's or breaker's inputs only with it chosen: HTML made for a link
  // that chose another shows other inputs, which would keep that link's values.
  const names = new Set(fields.filter((_, i) => i % 2 === 0));
  if ([...byName.keys()].some((name) => !names.has(name))) {
    return false;
  }
  const inputs = [];
  for (let i = 0; i < fields.length; i += 2) {
    const field = byName.get(fields[i]);
    if (!field ||
      (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === fields[i + 1]))) {
      return false;
    }
    inputs.push(field);
  }
  elements.forEach((element, i) => {
    element.innerHTML = parts[2 * i + 1];
    element.dataset.prewritten = "";
  });
  inputs.forEach((field, i) => {
    const value = fields[2 * i + 1];
    if (field.tagName === "SELECT") {
      for (const option of field.options) {
        option.selected = option.defaultSelected = option.value === value;
      }
    } else {
      field.value = field.defaultValue = value;
    }
  });
  for (const group of page.querySelectorAll("#fit > details[data-solve]")) {
    group.open = open.includes(group.dataset.solve);
  }
  page.dataset.prewritten = "";
  return true;
}

// backoffcalcPatch sets in element's descendants the texts and attribute values that patch
// lists (app/patch.go's patchTo): the number of elements element should hold, then, "\x1e"
// between entries, a node (an element's index in document order, or a text's parent's index,
// -1 for element, ".", and the text's index among the parent's nodes), its name, and "t" and
// its new text, "s" and an attribute's name and value, or "r" and an attribute to remove,
// "\x1f" between fields. It changes nothing, and returns false, unless element holds that many
// elements and each node listed has the name expected.
function backoffcalcPatch(element, patch) {
  const entries = patch.split("\x1e");
  const all = element.getElementsByTagName("*");
  if (all.length !== Number(entries[0])) {
    return false;
  }
  const changes = [];
  for (let i = 1; i < entries.length; i++) {
    const fields = entries[i].split("\x1f");
    const [at, child] = fields[0].split(".");
    let node = at === "-1" ? element : all[Number(at)];
    if (node && child !== undefined) {
      node = node.childNodes[Number(child)];
    }
    if (!node || node.nodeName.toLowerCase() !== fields[1] || !"tsr".includes(fields[2])) {
      return false;
    }
    changes.push([node, fields]);
  }
  for (const [node, fields] of changes) {
    if (fields[2] === "t") {
      node.data = fields[3];
    } else if (fields[2] === "s") {
      node.setAttribute(fields[3], fields[4]);
    } else {
      node.removeAttribute(fields[3]);
    }
  }
  return true;
}

// backoffcalcKeepTyped keeps, for this tab, the link a keystroke made but the address does not
// have yet, as the page is left: guard.js puts it in the address when Back or Forward returns
// to this page (goapp_js.go's keepTypedLink). Storage may be refused: the link is then lost, as
// before.
function backoffcalcKeepTyped(to) {
  try {
    sessionStorage.setItem("backoffcalc-typed", JSON.stringify({ path: location.pathname, from: location.search, to: to }));
  } catch (e) {
    // private modes and sandboxes may refuse storage
  }
}

async function backoffcalcLoad() {
  backoffcalcStatus("Loading the calculator…");
  let stage = "downloading";
  try {
    const response = await fetch(backoffcalcWasm);
    if (!response.ok) {
      throw new Error("the server answered " + response.status + " " + response.statusText + " for " + backoffcalcWasm);
    }
    stage = "compiling";
    const go = new Go();
    const wasm = await WebAssembly.instantiateStreaming(response, go.importObject);
    stage = "starting";
    const exited = go.run(wasm.instance);
    if (backoffcalcLoader) {
      backoffcalcLoader.hidden = true;
    }
    document.documentElement.classList.remove("wasm-failed");
    await exited;
    // go-app's program never returns: an exit is a crash, which wasm_exec.js logged.
    backoffcalcStatus("The calculator stopped because of an internal error; the numbers on the page no longer follow the inputs. Please report this link.", () => window.location.reload());
  } catch (err) {
    console.warn("backoffcalc: loading the calculator failed while " + stage + ":", err);
    backoffcalcStatus("The calculator could not be loaded (" + stage + " app.wasm: " + (err && err.message ? err.message : err) + "). Check the connection and try again.", () => window.location.reload());
  }
}

// Not at the path the site was built for (static.go's pathCheck): nothing to start.
if (window.backoffcalcWrongPath === undefined) {
  backoffcalcStart();
}
