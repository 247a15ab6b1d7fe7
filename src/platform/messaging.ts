/**
 * The protocol on the browser's transports: `send` (the one way to send) and `listen` (the one way to
 * answer), each message routed by the context it is for (ROUTES): the background over a kept request port
 * (./port-transport.ts), Chrome's offscreen document over a request channel (./channel-transport.ts), a
 * tab's content script by tabs.sendMessage (./runtime.ts).
 */
import { PROTOCOL } from '../shared/messages';
import type { Context } from '../shared/messages';
import { createSend, dispatch } from '../shared/protocol';
import type { Handlers, RawListener, Send, Transport } from '../shared/protocol';
import { onRawChannel, sendOverChannel } from './channel-transport';
import { onRawPort, sendOverPort } from './port-transport';
import { backgroundUrl, extensionId, extensionOrigin, onRawMessage, sendRaw } from './runtime';

/**
 * How each context is reached (src/platform/runtime.ts), so that no other open extension page (the popup,
 * the side panel) is offered the several messages a run sends per move, as runtime.sendMessage would:
 * - `port`: the background, over a kept request port. Only the background listens for ports: a port is
 *   offered to every context that does and stays open while any of them keeps it, so a second listener (the
 *   offscreen document) would keep a content script's port open after the service worker stopped, and
 *   nothing would tell the content script that its request died with the worker.
 * - `channel`: Chrome's offscreen document, over a same-origin request channel.
 * - `tab`: a content script, by tabs.sendMessage to its tab (a send without a target falls back to
 *   runtime.sendMessage).
 */
const ROUTES: Readonly<Record<Context, 'port' | 'channel' | 'tab'>> = { background: 'port', offscreen: 'channel', content: 'tab' };

/** How this extension delivers a message: by its kind's context's route (ROUTES), or to `target`'s tab. */
export const extensionTransport: Transport = (message, target) => {
  const to = PROTOCOL[message.kind].to;
  if (target || ROUTES[to] === 'tab') return sendRaw(message, target);
  return ROUTES[to] === 'port' ? sendOverPort(to, message) : sendOverChannel(to, message);
};

/** Send a message to the extension (background, solver host) or, with a target, to a tab's content script. */
export const send: Send = createSend(extensionTransport);

/** Where a context hears its messages: runtime messages, and the request ports or channel of its route. */
function extensionSource(context: Context): (listener: RawListener) => () => void {
  return (listener) => {
    const route = ROUTES[context];
    const stops = [onRawMessage(listener), ...(route === 'port' ? [onRawPort(context, listener)] : route === 'channel' ? [onRawChannel(context, listener)] : [])];
    return () => stops.forEach((stop) => stop());
  };
}

/** Answer the messages addressed to `context` with `handlers` (the one way to listen); returns a function that stops. */
export function listen<C extends Context>(context: C, handlers: Handlers<C>, source: (listener: RawListener) => () => void = extensionSource(context)): () => void {
  return source((data, sender, respond) => {
    const reply = dispatch(context, handlers, data, sender, { id: extensionId(), origin: extensionOrigin(), background: backgroundUrl() });
    if (!reply) return false;
    void reply.then(respond);
    return true;
  });
}
