// Tests and benchmarks write a request's action as text, as a URL does; the service's one parser
// (`parseAction`) turns it into the structured action the renderer takes.
import { parseAction, type AvatarAction, type AvatarRequest } from '../../src/avatar/request.js';

/** An avatar request whose action may be text (`'sit,wav'`, `'crr=1'`, `''`) or already parsed. */
export type RequestFields = Omit<AvatarRequest, 'action'> & { action: string | AvatarAction };

/** The renderer's request for `fields`, an action given as text parsed as the service parses `action=`. */
export function requestOf(fields: RequestFields): AvatarRequest {
  return { ...fields, action: typeof fields.action === 'string' ? parseAction(fields.action) : fields.action };
}

/** The plain request tests start from: size m, direction 2, no action or gesture, a still; `over` replaces fields. */
export function plainRequest(figure: string, over: Partial<RequestFields> = {}): AvatarRequest {
  return requestOf({
    figure,
    direction: 2,
    headDirection: 2,
    size: 'm',
    action: '',
    gesture: '',
    headOnly: false,
    animated: false,
    frames: 0,
    ...over,
  });
}
