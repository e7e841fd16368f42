import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { restoreSession } from "./lib/session";

restoreSession();
createRoot(document.getElementById("root")!).render(<App />);
