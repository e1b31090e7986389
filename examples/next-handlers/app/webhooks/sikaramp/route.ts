import { route } from '../../../lib/sikaramp.ts';
export const POST = route('webhook');
