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

// backoffcalcStatus shows text in go-app's loader, which app.css keeps to a line at the bottom of
// the window, with a button to try again when retry is set.
function backoffcalcStatus(text, retry) {
  const loader = document.getElementById("app-wasm-loader");
  const label = document.getElementById("app-wasm-loader-label");
  const icon = document.getElementById("app-wasm-loader-icon");
  if (!loader || !label) {
    return;
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
    document.getElementById("app-wasm-loader").hidden = true;
    document.documentElement.classList.remove("wasm-failed");
    await exited;
    // go-app's program never returns: an exit is a crash, which wasm_exec.js logged.
    backoffcalcStatus("The calculator stopped because of an internal error; the numbers on the page no longer follow the inputs. Please report this link.", () => window.location.reload());
  } catch (err) {
    console.warn("backoffcalc: loading the calculator failed while " + stage + ":", err);
    backoffcalcStatus("The calculator could not be loaded (" + stage + " app.wasm: " + (err && err.message ? err.message : err) + "). Check the connection and try again.", () => window.location.reload());
  }
}

backoffcalcStart();
