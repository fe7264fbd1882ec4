/**
 * @peculiar/x509 uses tsyringe, which refuses to load without the Reflect
 * metadata API. No polyfill package is installed (reflect-metadata would be
 * the usual one), so this supplies the three calls tsyringe makes. Import it
 * before @peculiar/x509.
 */
type Key = unknown;
type Target = object;

interface ReflectMetadataApi {
  getMetadata(key: Key, target: Target): unknown;
  getOwnMetadata(key: Key, target: Target): unknown;
  defineMetadata(key: Key, value: unknown, target: Target): void;
}

const store = new WeakMap<Target, Map<Key, unknown>>();

const api: ReflectMetadataApi = {
  getOwnMetadata: (key, target) => store.get(target)?.get(key),
  getMetadata(key, target) {
    // Walk the prototype chain, as reflect-metadata does.
    for (let t: Target | null = target; t; t = Object.getPrototypeOf(t) as Target | null) {
      const own = store.get(t);
      if (own?.has(key)) return own.get(key);
    }
    return undefined;
  },
  defineMetadata(key, value, target) {
    let own = store.get(target);
    if (!own) store.set(target, (own = new Map()));
    own.set(key, value);
  },
};

const reflect = Reflect as unknown as Partial<ReflectMetadataApi>;
if (typeof reflect.getMetadata !== 'function') Object.assign(Reflect, api);
