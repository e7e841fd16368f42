#!/bin/sh
# npm start: install what is missing, build the UI, then serve the appliance (migrations
# are applied at boot). Configuration comes from the environment; see README.
set -eu
cd "$(dirname "$0")/.."
sh scripts/ensure-deps.sh
node_modules/.bin/bun scripts/build-ui.ts
exec node_modules/.bin/bun appliance/main.ts
