import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { HostpayError } from '../errors.js';
import { errorBody, JSON_UTF8 } from './envelope.js';
import { newRequestId, REQUEST_ID_HEADER } from './request-id.js';

/**
 * Answers for what Node's HTTP parser refuses before Fastify sees a request (a malformed request
 * line, bad characters in the URL, headers past the size limit, bad chunked encoding, an unknown
 * method, a request that took too long) and for an `Expect` header other than 100-continue. Node
 * would write bare status lines; we write the envelope with a code and an `x-request-id`, so every
 * byte the server answers has the one shape. The connection is closed after it: the parser's state
 * is lost, and nothing after the bad bytes can be trusted to be a request.
 */
export function clientErrorFor(code: string | undefined): HostpayError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HostpayError(
        'HEADERS_TOO_LARGE',
        'request headers are too large (16 KiB at most, request line included): send fewer or shorter headers',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HostpayError(
        'REQUEST_TIMEOUT',
        'the request was not received in time: send the whole request promptly',
      );
    case 'HPE_INVALID_METHOD':
      return new HostpayError('MALFORMED_REQUEST', 'unknown HTTP method: use GET, POST, PUT, PATCH or DELETE');
    case 'HPE_INVALID_URL':
      return new HostpayError(
        'MALFORMED_REQUEST',
        'the request target is malformed (a space, control character or non-ASCII byte): percent-encode it per RFC 3986',
      );
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
      return new HostpayError(
        'MALFORMED_REQUEST',
        'the request body framing is invalid (bad chunked encoding or Content-Length): send a correct Content-Length or valid chunks',
      );
    default:
      return new HostpayError(
        'MALFORMED_REQUEST',
        'the request is not valid HTTP/1.1 (request line or headers malformed): check what your HTTP client sends',
      );
  }
}

function render(err: HostpayError, requestId: string): { head: Record<string, string>; body: string } {
  const body = JSON.stringify(errorBody(err, requestId));
  return {
    head: {
      'content-type': JSON_UTF8,
      'content-length': String(Buffer.byteLength(body)),
      [REQUEST_ID_HEADER]: requestId,
      'cache-control': 'no-store',
      connection: 'close',
    },
    body,
  };
}

/** Fastify's `clientErrorHandler`: the envelope on the raw socket, then close. */
export function makeClientErrorHandler(
  log: () => FastifyBaseLogger,
): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const requestId = newRequestId();
    const mapped = clientErrorFor(err.code);
    log().debug({ code: err.code, requestId }, 'client error');
    // A response may already have started on this socket (e.g. a timeout mid-answer): then no
    // second status line, just close.
    if (!socket.writable || (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true) {
      socket.destroy(err);
      return;
    }
    endWith(socket, mapped, requestId);
  };
}

/** Writes the envelope of `err` as the whole answer on a raw socket, then closes it. */
function endWith(socket: Socket, err: HostpayError, requestId: string): void {
  const { head, body } = render(err, requestId);
  const lines = Object.entries(head)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${err.status} ${STATUS_TEXT[err.status] ?? 'Error'}\r\n${lines}\r\n${body}`);
}

/**
 * Node hands a CONNECT request to 'connect' listeners and, with none, destroys the socket: the
 * client would see the connection close without an answer. It gets the envelope like
 * every other method the server does not take, then the connection closes (what follows a CONNECT
 * would be tunnel bytes, not requests).
 */
export function installConnectHandler(server: Server, log: () => FastifyBaseLogger): void {
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const requestId = newRequestId();
    log().debug({ method: req.method, requestId }, 'CONNECT refused');
    socket.on('error', () => socket.destroy());
    if (!socket.writable) return void socket.destroy();
    endWith(
      socket,
      new HostpayError(
        'MALFORMED_REQUEST',
        'CONNECT is not supported (hostpay is not a proxy): use GET, POST, PUT, PATCH or DELETE',
      ),
      requestId,
    );
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

/** Node answers an `Expect` other than 100-continue with a bare 417 unless someone listens. */
export function installExpectationHandler(server: Server): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const requestId = newRequestId();
    const { head, body } = render(
      new HostpayError(
        'EXPECTATION_FAILED',
        'the Expect header is not supported (only 100-continue is): send the request without it',
      ),
      requestId,
    );
    res.writeHead(417, head).end(body);
    req.resume();
  });
}
