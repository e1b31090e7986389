/**
 * What the widget used of Lit's ReactiveElement, whose converters, reflection, controllers and
 * lifecycle hooks weighed ~2 KB gzipped on every page: an accessor per property (props.ts), the
 * attributes mapped to them, and one lit-html render per task into an open shadow root.
 */
import { render } from 'lit-html';
import { type Attribute, PROPS } from './props.js';
import { styles } from './ramp-widget.styles.js';

// In Node (server-side rendering) there is no HTMLElement: the class is defined there, never constructed.
const Base = (globalThis.HTMLElement ?? Object) as typeof HTMLElement;

export abstract class ReactiveElement extends Base {
  static observedAttributes = Object.keys(PROPS);

  // An accessor per property, on the prototype. A change re-renders.
  static {
    for (const [prop] of Object.values(PROPS))
      Object.defineProperty(this.prototype, prop, {
        get(this: ReactiveElement) {
          return this.#props[prop];
        },
        set(this: ReactiveElement, value: unknown) {
          if (value === this.#props[prop]) return;
          this.#props[prop] = value;
          this.#changed.add(prop);
          this.update();
        },
      });
  }

  #props: Record<string, unknown> = {};
  /** The properties changed since the last render. */
  #changed = new Set<string>();
  /** The pending render: settles once the shadow root shows the current state. */
  #rendered?: Promise<void>;

  constructor() {
    super();
    // A property the page set before the element was defined is an own property hiding the
    // accessor: it goes through the accessor instead, and wins over the default.
    for (const [prop, initial] of Object.values(PROPS)) {
      const value = (this as Record<string, unknown>)[prop];
      delete (this as Record<string, unknown>)[prop];
      (this as Record<string, unknown>)[prop] = value ?? initial;
    }
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null) {
    const [prop, , read] = PROPS[name as Attribute] as readonly [string, unknown?, NumberConstructor?];
    (this as Record<string, unknown>)[prop] = value != null && read ? read(value) : value;
  }

  /** The template of the current state. */
  protected abstract render(): unknown;

  /** After a render: the properties changed since the last one, and whether it was the first. */
  protected abstract updated(changed: Set<string>, first: boolean): void;

  /**
   * Renders once per task however many properties changed; the promise settles once the
   * shadow root shows the current state (event listeners bound to the element).
   */
  protected update(): Promise<void> {
    return (this.#rendered ??= Promise.resolve().then(() => {
      this.#rendered = undefined;
      if (!this.isConnected) return;
      const first = !this.shadowRoot;
      render(this.render(), this.shadowRoot ?? this.#attach(), { host: this });
      const changed = this.#changed;
      this.#changed = new Set();
      this.updated(changed, first);
    }));
  }

  /** The shadow root, styled by a constructed stylesheet (no CSP `style-src` needed); a `<style>` where the browser has none (Safari before 16.4). */
  #attach() {
    const root = this.attachShadow({ mode: 'open' });
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(styles);
      root.adoptedStyleSheets = [sheet];
    } catch {
      root.innerHTML = `<style>${styles}</style>`;
    }
    return root;
  }
}
