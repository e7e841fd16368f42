import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";

// Only what a bar chart needs: imported by name here (and this module loaded on demand by
// BarChart), so the bundler leaves the rest of Chart.js out of the chunk.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export { Chart };
