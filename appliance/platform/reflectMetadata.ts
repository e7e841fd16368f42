/**
 * The three Reflect metadata functions tsyringe (inside @peculiar/x509) looks for at import;
 * x509 keeps no decorator metadata of its own, so this small store is all it needs. Imported
 * before @peculiar/x509 (tls.ts). Replace with the `reflect-metadata` package if one is added.
 */
type Store = Map<unknown, unknown>;
const stores = new WeakMap<object, Store>();
const R = Reflect as typeof Reflect & Record<string, unknown>;

if (typeof R.getMetadata !== "function") {
  const own = (key: unknown, target: object) => stores.get(target)?.get(key);
  R.getOwnMetadata = own;
  R.getMetadata = (key: unknown, target: object) => {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t)) {
      const v = own(key, t);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  R.defineMetadata = (key: unknown, value: unknown, target: object) => {
    let store = stores.get(target);
    if (!store) stores.set(target, (store = new Map()));
    store.set(key, value);
  };
}
