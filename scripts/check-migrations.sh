#!/bin/sh
# Schema against migrations, offline. `drizzle-kit check` only checks that the committed
# migrations agree with one another, so the schema is also generated into a copy of the
# migrations folder: a new file there is a schema change without its migration.
set -eu
cd "$(dirname "$0")/.."
node_modules/.bin/drizzle-kit check >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r db/migrations "$tmp/migrations"
# drizzle-kit reads --out relative to the working directory.
out=$(realpath --relative-to=. "$tmp/migrations")
node_modules/.bin/drizzle-kit generate --dialect sqlite --schema ./db/schema/index.ts --out "$out" >/dev/null
if [ "$(ls "$tmp/migrations" | wc -l)" != "$(ls db/migrations | wc -l)" ]; then
  echo "drizzle: db/schema has changes no migration holds; run npm run db:generate and commit the migration" >&2
  exit 1
fi
echo "drizzle: schema and migrations agree"
