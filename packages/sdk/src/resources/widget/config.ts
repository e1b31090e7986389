import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { WidgetConfigSchema, type WidgetConfig } from '../merchant/widget-config.js';

/** `GET /api/v1/widget/config`. */
export class Config extends Resource {
  /** The widget config the page's widget will apply: theme, coins, redirect URL. */
  async get(opts?: RequestOptions): Promise<WidgetConfig> {
    return this.core.get('api/v1/widget/config', { ...opts, schema: WidgetConfigSchema });
  }
}
