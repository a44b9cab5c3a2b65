package dev.ebb.storage.rdb;

import com.ning.compress.lzf.ChunkDecoder;
import com.ning.compress.lzf.LZFException;
import com.ning.compress.lzf.impl.VanillaChunkDecoder;
import com.ning.compress.lzf.impl.VanillaChunkEncoder;

/**
 * Raw LZF blocks as Redis stores compressed strings (liblzf's lzf_compress / lzf_decompress, no
 * framing), done by {@code com.ning:compress-lzf}'s chunk codec without its "ZV" chunk headers.
 *
 * <p>An LZF block is a sequence of literal runs and back-references of at most 8 KB, so blocks of
 * consecutive slices concatenate into one valid block: inputs of any length are compressed in
 * 64 KB slices. The encoder hashes differently from liblzf, so the compressed bytes may differ from
 * Redis's for the same string (both decode to the same data). Decoding uses the bounds-checked
 * ("vanilla") decoder, never the Unsafe one, because the input may be corrupt.
 *
 * <p>Not thread-safe: one instance per writer or reader (the encoder keeps a hash table).
 */
public final class Lzf {
    private static final int SLICE = 0xFFFF;

    private final Encoder encoder = new Encoder();
    private final ChunkDecoder decoder = new VanillaChunkDecoder();
    private byte[] scratch = new byte[0];

    /**
     * Compresses {@code len} bytes of {@code in} from {@code off}, as Redis's
     * rdbSaveLzfStringObject: only if the result is at most {@code len - 4} bytes.
     *
     * @return the compressed length, its bytes in {@link #output()}; or 0 if it does not compress
     */
    public int compress(byte[] in, int off, int len) {
        if (len <= 4) {
            return 0;
        }
        int bound = len + len / 32 + 64;
        if (scratch.length < bound) {
            scratch = new byte[bound];
        }
        int outPos = 0;
        for (int at = off, end = off + len; at < end; at += SLICE) {
            int slice = Math.min(SLICE, end - at);
            outPos = slice < 16 ? literals(in, at, slice, scratch, outPos) : encoder.block(in, at, at + slice, scratch, outPos);
        }
        return outPos <= len - 4 ? outPos : 0;
    }

    /** The buffer holding the last {@link #compress} result. */
    public byte[] output() {
        return scratch;
    }

    /**
     * Decompresses a raw LZF block that must expand to exactly {@code out.length} bytes.
     *
     * @throws RdbException if the block is corrupt
     */
    public void decompress(byte[] in, byte[] out) throws RdbException {
        try {
            decoder.decodeChunk(in, 0, out, 0, out.length);
        } catch (LZFException | RuntimeException e) {
            throw new RdbException("Invalid LZF compressed string", e);
        }
    }

    /** A tail too short for the encoder, as plain literal runs of at most 32 bytes. */
    private static int literals(byte[] in, int at, int len, byte[] out, int outPos) {
        while (len > 0) {
            int run = Math.min(32, len);
            out[outPos++] = (byte) (run - 1);
            System.arraycopy(in, at, out, outPos, run);
            outPos += run;
            at += run;
            len -= run;
        }
        return outPos;
    }

    /** Exposes the library's raw block compressor (protected there: it is the framing-free core). */
    private static final class Encoder extends VanillaChunkEncoder {
        Encoder() {
            super(SLICE);
        }

        int block(byte[] in, int from, int to, byte[] out, int outPos) {
            return tryCompress(in, from, to, out, outPos);
        }
    }
}
