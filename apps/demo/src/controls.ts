// The controls above the view: displayed axes, a slider per other dimension,
// the contrast window, the colormap and the zoom.
import { COLORMAPS, type Colormap } from "./url-state.js";
import type { Viewer } from "./viewer.js";

function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  const label = document.createElement("label");
  label.append(`${text} `, control);
  return label;
}

function select(options: string[], value: string, onChange: (value: string) => void): HTMLSelectElement {
  const element = document.createElement("select");
  for (const [i, text] of options.entries()) element.add(new Option(text, String(i)));
  element.value = value;
  element.addEventListener("change", () => onChange(element.value));
  return element;
}

export function buildControls(root: HTMLElement, viewer: Viewer, changed: () => void) {
  const { volume } = viewer;
  const shape = volume.levels[0]!.shape;
  const names = volume.dimensionNames.map((n, d) => `${n} (${shape[d]})`);
  const sliders = document.createElement("div");
  sliders.className = "sliders";
  const lo = Object.assign(document.createElement("input"), { type: "number", step: "any", id: "contrast-lo" });
  const hi = Object.assign(document.createElement("input"), { type: "number", step: "any", id: "contrast-hi" });
  const zoomText = document.createElement("output");

  const apply = (changes: Parameters<Viewer["update"]>[0]) => {
    viewer.update(changes);
    changed();
    refresh();
  };

  const buildSliders = () => {
    const [down, across] = viewer.settings.axes;
    sliders.replaceChildren(
      ...shape.flatMap((n, d) => {
        if (d === down || d === across) return [];
        const slider = Object.assign(document.createElement("input"), {
          type: "range",
          min: "0",
          max: String(n - 1),
          step: "1",
        });
        slider.value = String(viewer.settings.at[d]);
        const value = document.createElement("output");
        value.textContent = slider.value;
        slider.addEventListener("input", () => {
          value.textContent = slider.value;
          const at = [...viewer.settings.at];
          at[d] = Number(slider.value);
          apply({ at });
        });
        return [labelled(volume.dimensionNames[d]!, slider), value];
      }),
    );
  };

  const axisSelect = (which: 0 | 1) =>
    select(names, String(viewer.settings.axes[which]), (value) => {
      const axes: [number, number] = [...viewer.settings.axes];
      const d = Number(value);
      // Picking the other displayed axis swaps the two.
      if (axes[1 - which] === d) axes[1 - which] = axes[which];
      axes[which] = d;
      apply({ axes, panRow: 0, panCol: 0 });
      buildSliders();
      downSelect.value = String(axes[0]);
      acrossSelect.value = String(axes[1]);
    });
  const downSelect = axisSelect(0);
  const acrossSelect = axisSelect(1);

  const setContrast = () => {
    const l = Number(lo.value);
    const h = Number(hi.value);
    if (Number.isFinite(l) && Number.isFinite(h) && h > l) apply({ contrast: [l, h] });
  };
  lo.addEventListener("change", setContrast);
  hi.addEventListener("change", setContrast);
  const auto = Object.assign(document.createElement("button"), { type: "button", textContent: "Auto contrast" });
  auto.addEventListener("click", () => apply({ contrast: undefined }));
  const colormap = select([...COLORMAPS], String(COLORMAPS.indexOf(viewer.settings.colormap)), (value) =>
    apply({ colormap: COLORMAPS[Number(value)] as Colormap }),
  );
  const zoomBy = (factor: number) => () =>
    apply({ zoom: Math.min(64, Math.max(1 / 64, viewer.settings.zoom * factor)) });
  const zoomButton = (text: string, onClick: () => void) => {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: text });
    button.addEventListener("click", onClick);
    return button;
  };

  root.replaceChildren(
    labelled("Down", downSelect),
    labelled("Across", acrossSelect),
    sliders,
    labelled("Contrast", lo),
    hi,
    auto,
    labelled("Colormap", colormap),
    zoomButton("−", zoomBy(1 / 2)),
    zoomButton("+", zoomBy(2)),
    zoomButton("1:1", () => apply({ zoom: 1, panRow: 0, panCol: 0 })),
    zoomText,
  );
  buildSliders();

  function refresh(): void {
    const { contrast, zoom } = viewer.settings;
    if (document.activeElement !== lo) lo.value = contrast ? String(contrast[0]) : "";
    if (document.activeElement !== hi) hi.value = contrast ? String(contrast[1]) : "";
    const level = viewer.levelIndex();
    const levelText = volume.levels.length > 1 ? `, level ${volume.levels[level]!.path}` : "";
    zoomText.textContent = `zoom ${zoom.toFixed(2)}${levelText}`;
  }
  refresh();
  return { refresh };
}
