import { route } from '../../../../lib/sikaramp.ts';
export const GET = route('status');
