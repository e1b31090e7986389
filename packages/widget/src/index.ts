/** @sikaramp/widget: the <ramp-widget> web component. */
export const TAG_NAME = 'ramp-widget';
