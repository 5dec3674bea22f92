"""The wire format: CRC, COBS, frames, and a decoder that survives any noise."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.firmware import protocol

frames = st.tuples(
    st.sampled_from(sorted(protocol.NAMES)),
    st.integers(0, 0xFFFF),
    st.binary(max_size=protocol.MAX_FRAME - 5),
)


def test_crc16_is_ccitt_false() -> None:
    assert protocol.crc16(b"123456789") == 0x29B1
    assert protocol.crc16(b"") == 0xFFFF


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = protocol.cobs_encode(data)
    assert 0 not in encoded
    assert protocol.cobs_decode(encoded) == data


def test_cobs_rejects_zero_and_overrun() -> None:
    assert protocol.cobs_decode(b"\x03a\x00") is None
    assert protocol.cobs_decode(b"\x05ab") is None


@given(frames)
def test_frame_round_trip(frame: tuple[int, int, bytes]) -> None:
    wire = protocol.encode(*frame)
    assert wire.endswith(b"\x00") and 0 not in wire[:-1]
    assert protocol.decode(wire[:-1]) == frame


def test_known_frame_bytes() -> None:
    # Pinned so the document's worked example and the code never drift apart.
    wire = protocol.encode(protocol.HEARTBEAT, 1)
    assert wire == bytes.fromhex("02 02 04 01 b2 dd 00")
    assert protocol.decode(wire[:-1]) == (protocol.HEARTBEAT, 1, b"")
    body = struct.pack(protocol.OPEN_WINDOW_BODY, 3, 0b000101)
    assert protocol.encode(protocol.OPEN_WINDOW, 5, body) == bytes.fromhex(
        "02 03 02 05 05 03 05 79 43 00"
    )


@given(frames, st.integers(0, 8 * 60 - 1))
def test_any_single_flipped_bit_is_caught(frame: tuple[int, int, bytes], bit: int) -> None:
    wire = bytearray(protocol.encode(*frame)[:-1])
    bit %= len(wire) * 8
    wire[bit // 8] ^= 1 << (bit % 8)
    if 0 in wire:
        return  # the flip made a delimiter: the receiver sees two damaged packets instead
    assert protocol.decode(bytes(wire)) != frame


@settings(max_examples=300)
@given(st.binary(max_size=2000), st.lists(st.integers(1, 64), max_size=30))
def test_decoder_never_raises_on_noise(noise: bytes, cuts: list[int]) -> None:
    decoder = protocol.Decoder()
    at = 0
    for cut in [*cuts, len(noise)]:
        for kind, _seq, body in decoder.feed(noise[at : at + cut]):
            assert kind in range(256) and len(body) <= protocol.MAX_FRAME
        at += cut
    assert decoder.frames + decoder.dropped >= 0


@settings(max_examples=200)
@given(
    st.lists(frames, min_size=1, max_size=8),
    st.lists(st.binary(max_size=80), min_size=1, max_size=8),
    st.lists(st.integers(1, 40), max_size=20),
)
def test_decoder_resynchronises_after_noise(
    good: list[tuple[int, int, bytes]], noise: list[bytes], cuts: list[int]
) -> None:
    # Noise, then a delimiter, then each good frame (itself followed by more noise + delimiter):
    # every good frame comes out, in order, however the stream is cut into reads.
    stream = bytearray()
    for i, frame in enumerate(good):
        stream += noise[i % len(noise)] + b"\x00" + protocol.encode(*frame)
    decoder = protocol.Decoder()
    out = []
    at = 0
    for cut in [*cuts, len(stream)]:
        out += decoder.feed(bytes(stream[at : at + cut]))
        at += cut
    # Noise can, by a one-in-65536 chance, be a valid frame itself; good frames all survive.
    assert [f for f in out if f in good] == good or len(out) > len(good)
    assert all(f in out for f in good)


def test_decoder_counts_what_it_drops() -> None:
    decoder = protocol.Decoder()
    good = protocol.encode(protocol.HEARTBEAT, 7)
    truncated = good[:3] + b"\x00"
    flipped = bytearray(good)
    flipped[2] ^= 0x10
    oversize = b"\x01" * 500 + b"\x00"
    frames = decoder.feed(truncated + bytes(flipped) + oversize + good)
    assert frames == [(protocol.HEARTBEAT, 7, b"")]
    assert decoder.damaged == 2
    assert decoder.oversize == 1
    assert decoder.dropped == 3


def test_struct_layouts_fit_a_frame() -> None:
    for fmt in (protocol.HELLO_REPLY_HEAD, protocol.PRESS_BODY, protocol.ACK_BODY,
                protocol.BOARD_HEARTBEAT_BODY):
        # HELLO_REPLY also carries two strings of at most 24 bytes, each with a length byte.
        assert struct.calcsize(fmt) + 5 + 2 * 25 <= protocol.MAX_FRAME
