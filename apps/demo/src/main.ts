// The app: the start page with the samples, a group's tree, or a volume in the
// viewer with its controls and the inspector. Its state lives in the URL.
import "./style.css";
import { type StoreRequest, withRequestLog } from "zarrkit";
import { showAlert } from "./alerts.js";
import { explainError } from "./errors.js";
import { AnnotationLayer } from "./annotations.js";
import { Inspector } from "./inspector.js";
import { OfflinePanel } from "./offline.js";
import { listenForLocalSources } from "./local-open.js";
import { LOCAL } from "./local-sources.js";
import { absoluteSource, childSource, type Opened, openSource, type S3Keys, s3Source } from "./open-source.js";
import { buildControls } from "./controls.js";
import { formatUrlState, parseUrlState, type UrlState } from "./url-state.js";
import { type ViewSettings, Viewer } from "./viewer.js";
import type { Volume } from "./volume.js";

// The app works offline once its service worker has cached it (production builds only).
if (import.meta.env.PROD && "serviceWorker" in navigator) void navigator.serviceWorker.register("/sw.js");
const view = document.querySelector<HTMLCanvasElement>("#view")!;
const inspector = new Inspector(document.querySelector<HTMLElement>("#inspector")!);
const sourceInput = document.querySelector<HTMLInputElement>("#source-input")!;
const saveButton = document.querySelector<HTMLButtonElement>("#save")!;
const offline = new OfflinePanel(
  document.querySelector<HTMLElement>("#saved")!,
  document.querySelector<HTMLProgressElement>("#save-progress")!,
  document.querySelector<HTMLElement>("#save-status")!,
  document.querySelector<HTMLButtonElement>("#save-cancel")!,
  (key, message) => showAlert(key, message),
);

function show(section: "start" | "group" | "viewer"): void {
  for (const id of ["start", "group", "viewer"]) document.getElementById(id)!.hidden = id !== section;
}

function setState(state: string): void {
  view.dataset.state = state;
}

interface Sample {
  name: string;
  description: string;
  source: string;
}

async function showStart(): Promise<void> {
  show("start");
  const list = document.querySelector("#samples")!;
  try {
    const response = await fetch("/data/samples.json");
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const samples = (await response.json()) as Sample[];
    list.replaceChildren(
      ...samples.map((sample) => {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = formatUrlState({ source: sample.source }) || "./";
        link.textContent = sample.name;
        item.append(link, ` — ${sample.description}`);
        return item;
      }),
    );
  } catch (error) {
    list.replaceChildren(`No sample list on this server (${error instanceof Error ? error.message : String(error)}).`);
  }
}

function showGroup(opened: Extract<Opened, { kind: "group" }>, state: UrlState): void {
  show("group");
  inspector.reset(opened.metadata);
  document.querySelector("#group-title")!.textContent =
    `${state.source} — group${opened.consolidated ? " (consolidated metadata: one request for the whole tree)" : ""}`;
  const list = document.querySelector("#tree")!;
  list.replaceChildren(
    ...opened.tree.map((entry) => {
      const item = document.createElement("li");
      item.style.paddingLeft = `${entry.path.split("/").length - 1}em`;
      const name = entry.path.split("/").at(-1)!;
      if (entry.kind === "array") {
        const link = document.createElement("a");
        const source = childSource(state.source!, entry.path);
        link.href = formatUrlState({ source });
        link.textContent = name;
        // Local files live in this page: open their members without loading a new one.
        if (source.startsWith(LOCAL)) {
          link.addEventListener("click", (event) => {
            event.preventDefault();
            openInPage(source);
          });
        }
        item.append(link, ` ${entry.description}`);
      } else {
        item.append(`${name}/`);
      }
      return item;
    }),
  );
  setState("ready");
}

/** The viewer's settings from the URL, with defaults for what it leaves out or gets wrong. */
function initialSettings(volume: Volume, state: UrlState): ViewSettings {
  const shape = volume.levels[0]!.shape;
  const rank = shape.length;
  const axes = state.axes?.every((a) => a < rank) ? state.axes! : ([...volume.defaultAxes] as [number, number]);
  const others = shape.map((_, d) => d).filter((d) => d !== axes[0] && d !== axes[1]);
  const at = shape.map((n) => Math.floor(n / 2));
  others.forEach((d, i) => {
    const given = state.at?.[i];
    if (given !== undefined) at[d] = Math.min(shape[d]! - 1, given);
  });
  return {
    axes,
    at,
    zoom: state.zoom ?? 1,
    panRow: state.pan?.[0] ?? 0,
    panCol: state.pan?.[1] ?? 0,
    contrast: state.contrast,
    colormap: state.colormap ?? (volume.isLabels ? "labels" : "gray"),
  };
}

function urlStateOf(source: string, settings: ViewSettings): UrlState {
  const [down, across] = settings.axes;
  return {
    source,
    at: settings.at.filter((_, d) => d !== down && d !== across),
    ...(settings.contrast ? { contrast: settings.contrast } : {}),
    colormap: settings.colormap,
    zoom: settings.zoom,
    axes: settings.axes,
    pan: [settings.panRow, settings.panCol],
  };
}

function showVolume(volume: Volume, state: UrlState): void {
  show("viewer");
  inspector.reset(volume.metadata);
  const level0 = volume.levels[0]!;
  const settings = initialSettings(volume, state);
  const remember = () => history.replaceState(null, "", formatUrlState(urlStateOf(state.source!, viewer.settings)));
  let controls: ReturnType<typeof buildControls> | undefined;
  const viewer = new Viewer(view, volume, settings, {
    onSettings: () => {
      inspector.showLayout(volume.levels[viewer.levelIndex()]!.array, viewer.settings.axes);
      remember();
      controls?.refresh();
    },
    onRead: (read) => inspector.onRead(read, viewer.settings.axes, volume.levels[read.levelIndex]!.array),
    onError: (key, message) => showAlert(key, message),
    onStatus: (status) => {
      // Which slice the state is about, for automated checks that move a slider.
      view.dataset.at = urlStateOf(state.source!, viewer.settings).at!.join(",");
      setState(status);
      controls?.refresh();
    },
  });
  const paint = document.querySelector<HTMLInputElement>("#paint")!;
  viewer.overlay = new AnnotationLayer(
    volume.source,
    level0.shape,
    (annotations) => {
      view.dataset.annotations = annotations;
    },
    (key, message) => showAlert(key, message),
  );
  paint.checked = false;
  paint.onchange = () => {
    viewer.painting = paint.checked;
  };
  controls = buildControls(document.querySelector<HTMLElement>("#controls")!, viewer, () => {
    inspector.showLayout(volume.levels[viewer.levelIndex()]!.array, viewer.settings.axes);
    remember();
  });
  inspector.showLayout(level0.array, settings.axes);
  const savable = /^https?:\/\//.test(volume.source) || volume.source.startsWith(LOCAL);
  saveButton.disabled = !savable || !level0.array;
  saveButton.title = !savable
    ? "Only arrays opened over http(s) or from this computer can be saved here"
    : level0.array
      ? "Copy the array (a pyramid: the level shown) into IndexedDB"
      : "Only Zarr arrays can be saved";
  saveButton.onclick = () => {
    const level = volume.levels[viewer.levelIndex()]!;
    const name = `${state.source}${volume.levels.length > 1 ? ` (level ${level.path})` : ""}`;
    if (level.array) void offline.save(level.array, volume.source, name);
  };
  document.querySelector("#volume-title")!.textContent =
    `${state.source} — ${volume.dataType} [${level0.shape.join(", ")}] (${volume.dimensionNames.join(", ")})` +
    (volume.levels.length > 1 ? `, ${volume.levels.length} levels` : "");
  remember();
}

/** Keys typed into the S3 form, for this page only. */
let s3Keys: S3Keys | undefined;

async function start(): Promise<void> {
  const state = parseUrlState(location.search);
  if (!state.source) {
    setState("ready");
    await showStart();
    return;
  }
  sourceInput.value = state.source;
  setState("loading");
  const source = absoluteSource(state.source, location.origin);
  try {
    const opened = await openSource(
      source,
      (store) => withRequestLog(store, (request: StoreRequest) => inspector.onRequest(request)),
      s3Keys,
    );
    if (opened.kind === "group") showGroup(opened, state);
    else showVolume(opened.volume, state);
  } catch (error) {
    show("viewer");
    setState("error");
    showAlert(source, `Cannot open ${source}: ${explainError(error)}`);
  }
}

/** Show `source` without loading a new page (the S3 keys and local files live in this one). */
function openInPage(source: string): void {
  history.pushState(null, "", formatUrlState({ source }));
  void start();
}

window.addEventListener("popstate", () => void start());
listenForLocalSources(openInPage, (message) => showAlert("local", message));

document.querySelector("#open-form")!.addEventListener("submit", (event) => {
  event.preventDefault();
  location.search = formatUrlState({ source: sourceInput.value.trim() });
});

document.querySelector<HTMLFormElement>("#s3-form")!.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const accessKeyId = field("accessKeyId");
  const secretAccessKey = field("secretAccessKey");
  s3Keys = accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined;
  // No page load: the keys live in this page only.
  openInPage(s3Source(field("location"), field("endpoint"), field("region")));
});

void start();
