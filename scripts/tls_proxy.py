"""A TLS endpoint for the image test (scripts/lib.sh, test_image_tls): accepts TLS on
127.0.0.1:LISTEN with CERT and KEY, and passes each connection's bytes to and from
127.0.0.1:TARGET in the clear. Standard library only.

    python3 scripts/tls_proxy.py CERT KEY LISTEN TARGET
"""

import asyncio
import ssl
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


async def main(cert, key, listen, target):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    async def handle(reader, writer):
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", listen, ssl=context)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    cert, key, listen, target = sys.argv[1:5]
    asyncio.run(main(cert, key, int(listen), int(target)))
