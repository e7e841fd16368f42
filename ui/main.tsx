import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { expireIfIdle } from "./features/auth/idle";
import { registerServiceWorker } from "./lib/serviceWorker";
import { restoreSession } from "./lib/session";

restoreSession();
expireIfIdle();
createRoot(document.getElementById("root")!).render(<App />);
registerServiceWorker();
