// @ts-check
// The turn notice settings page: the browser is asked for permission to notify only
// when the user ticks "browser notification" (a click: browsers ask only on a gesture).

const box = /** @type {HTMLInputElement} */ (document.getElementById("id_browser"));
const status = document.getElementById("browser-permission");

function say() {
  if (!("Notification" in window)) {
    status.textContent = "This browser cannot show notifications.";
  } else if (Notification.permission === "denied") {
    status.textContent = "This browser blocks notifications from this site: allow them in its site settings.";
  } else if (Notification.permission === "granted") {
    status.textContent = box.checked ? "This browser will notify you." : "";
  } else {
    status.textContent = box.checked ? "Your browser will ask whether this site may notify you." : "";
  }
}

box.addEventListener("change", () => {
  if (box.checked && "Notification" in window && Notification.permission === "default") {
    Notification.requestPermission().then(say);
  }
  say();
});
say();
