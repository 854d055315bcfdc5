/**
 * The diff renderer (diff2html with highlight.js) is a separate file, fetched the first time a
 * diff is shown, so the board's first paint does not wait for it.
 */

interface DiffApi {
  render(target: HTMLElement, diff: string): void;
}

declare global {
  interface Window {
    tandemDiff?: DiffApi;
  }
}

let loading: Promise<DiffApi> | null = null;

function load(): Promise<DiffApi> {
  loading ??= new Promise<DiffApi>((resolve, reject) => {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = "/assets/diff.css";
    document.head.append(css);
    const script = document.createElement("script");
    script.src = "/assets/diff.js";
    script.onload = () => (window.tandemDiff ? resolve(window.tandemDiff) : reject(new Error("diff.js")));
    script.onerror = () => reject(new Error("could not load /assets/diff.js"));
    document.head.append(script);
  });
  return loading;
}

export async function renderDiff(target: HTMLElement, diff: string): Promise<void> {
  const api = await load();
  api.render(target, diff);
}
