// Messages a person reads: one role="alert" element per failing key, newest first.
const shown = new Map<string, HTMLElement>();

export function showAlert(key: string, message: string): void {
  const list = document.querySelector("#alerts")!;
  let alert = shown.get(key);
  if (!alert) {
    alert = document.createElement("div");
    alert.setAttribute("role", "alert");
    alert.className = "alert";
    shown.set(key, alert);
  }
  const text = document.createElement("span");
  text.textContent = message;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Dismiss";
  close.addEventListener("click", () => {
    alert.remove();
    shown.delete(key);
  });
  alert.replaceChildren(text, close);
  list.prepend(alert);
}
