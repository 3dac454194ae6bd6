/*
 * xlsx_epoch.c — a workbook dated SOURCE_DATE_EPOCH 0, which libxlsxwriter
 * cannot write (render_impl.h, pl_xlsx_pin_epoch_zero()).
 *
 * libxlsxwriter takes a creation time of 0 for "unset" and stamps the
 * current time, so 1970-01-01T00:00:00Z (a valid SOURCE_DATE_EPOCH) cannot
 * be asked of it. For that one epoch the finished file is rewritten:
 * docProps/core.xml is inflated, its W3CDTF dates are set to the epoch and
 * it is stored (uncompressed); every other member is copied as it is, and
 * the offsets of the central directory are recomputed. libxlsxwriter's
 * zips are plain (no data descriptors, no zip64, no comment), which is all
 * this reader accepts.
 */
#include "render/render_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "util/alloc.h"
#include "util/file.h"

#define ZIP_LOCAL 0x04034b50u   /* local file header signature */
#define ZIP_CENTRAL 0x02014b50u /* central directory header signature */
#define ZIP_END 0x06054b50u     /* end of central directory signature */
#define CORE_XML "docProps/core.xml"
#define EPOCH_ZERO "1970-01-01T00:00:00Z"

static unsigned rd16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static unsigned long rd32(const unsigned char *p)
{
	return (unsigned long)rd16(p) | (unsigned long)rd16(p + 2) << 16;
}

static void wr16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v & 0xff);
	p[1] = (unsigned char)(v >> 8 & 0xff);
}

static void wr32(unsigned char *p, unsigned long v)
{
	wr16(p, (unsigned)(v & 0xffff));
	wr16(p + 2, (unsigned)(v >> 16 & 0xffff));
}

/* Inflates the raw deflate stream src (n bytes) into a new buffer of
 * exactly usize bytes. NULL when it does not inflate to that size. */
static unsigned char *inflate_member(const unsigned char *src, size_t n, size_t usize)
{
	unsigned char *out = malloc(usize + 1);
	z_stream zs;
	int zrc;

	if (!out)
		return NULL;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
		free(out);
		return NULL;
	}
	zs.next_in = (Bytef *)src;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)(usize + 1);
	zrc = inflate(&zs, Z_FINISH);
	inflateEnd(&zs);
	if (zrc != Z_STREAM_END || zs.total_out != usize) {
		free(out);
		return NULL;
	}
	return out;
}

/* Sets every W3CDTF date ("...W3CDTF\">YYYY-MM-DDTHH:MM:SSZ") in xml to
 * EPOCH_ZERO, in place (same length). */
static void pin_dates(unsigned char *xml, size_t n)
{
	static const char tag[] = "W3CDTF\">";
	size_t lt = sizeof(tag) - 1, ld = sizeof(EPOCH_ZERO) - 1;

	for (size_t i = 0; i + lt + ld <= n; i++)
		if (memcmp(xml + i, tag, lt) == 0 && xml[i + lt + ld - 1] == 'Z')
			memcpy(xml + i + lt, EPOCH_ZERO, ld);
}

/* Rewrites the zip in buf (len bytes) into out (room for len plus the
 * inflated size of core.xml) with core.xml's dates at epoch 0. Returns the
 * new length, or 0 when buf is not a zip this reader accepts or memory
 * runs out. */
static size_t pin_zip(const unsigned char *buf, size_t len, unsigned char **outp)
{
	const unsigned char *end, *cd;
	unsigned char *out = NULL, *core = NULL, *newcd = NULL;
	size_t nent, cdsize, cdoff, o = 0, p, ncd = 0, result = 0, ocap = 0;

	if (len < 22 || rd32(buf + len - 22) != ZIP_END)
		return 0;
	end = buf + len - 22;
	nent = rd16(end + 10);
	cdsize = rd32(end + 12);
	cdoff = rd32(end + 16);
	if (cdoff > len - 22 || cdsize > len - 22 - cdoff)
		return 0;
	cd = buf + cdoff;
	newcd = malloc(cdsize);
	if (!newcd || PL_ALLOC_GROW(out, len + 22, ocap))
		goto done;
	for (size_t i = 0, q = 0; i < nent; i++) {
		const unsigned char *c = cd + q, *l;
		size_t nlen, xlen, clen, csize, usize, loff, data;
		const unsigned char *src;
		int is_core;

		if (q + 46 > cdsize || rd32(c) != ZIP_CENTRAL)
			goto done;
		nlen = rd16(c + 28);
		xlen = rd16(c + 30);
		clen = rd16(c + 32);
		csize = rd32(c + 20);
		usize = rd32(c + 24);
		loff = rd32(c + 42);
		if (q + 46 + nlen + xlen + clen > cdsize || loff + 30 > cdoff)
			goto done;
		l = buf + loff;
		if (rd32(l) != ZIP_LOCAL || (rd16(l + 6) & 0x8) != 0)
			goto done;
		data = loff + 30 + rd16(l + 26) + rd16(l + 28);
		if (data > cdoff || csize > cdoff - data)
			goto done;
		is_core = nlen == sizeof(CORE_XML) - 1 && memcmp(c + 46, CORE_XML, nlen) == 0;
		src = buf + data;
		if (is_core) {
			if (rd16(l + 8) != 8 || !(core = inflate_member(src, csize, usize)))
				goto done;
			pin_dates(core, usize);
			src = core;
			csize = usize;
			/* room: the stored member may be longer than the deflated one */
			if (PL_ALLOC_GROW(out, len + 22 + usize, ocap))
				goto done;
		}
		/* local header, name and extra as they were; then the data */
		memcpy(out + o, l, data - loff);
		if (is_core) {
			wr16(out + o + 8, 0); /* stored */
			wr32(out + o + 14, crc32(0L, core, (uInt)usize));
			wr32(out + o + 18, (unsigned long)usize);
		}
		memcpy(newcd + ncd, c, 46 + nlen + xlen + clen);
		if (is_core) {
			wr16(newcd + ncd + 10, 0);
			wr32(newcd + ncd + 16, crc32(0L, core, (uInt)usize));
			wr32(newcd + ncd + 20, (unsigned long)usize);
		}
		wr32(newcd + ncd + 42, (unsigned long)o);
		o += data - loff;
		memcpy(out + o, src, csize);
		o += csize;
		ncd += 46 + nlen + xlen + clen;
		q += 46 + nlen + xlen + clen;
	}
	if (!core)
		goto done;
	p = o;
	memcpy(out + o, newcd, ncd);
	o += ncd;
	memcpy(out + o, end, 22);
	wr32(out + o + 12, (unsigned long)ncd);
	wr32(out + o + 16, (unsigned long)p);
	o += 22;
	result = o;
done:
	free(core);
	free(newcd);
	if (result)
		*outp = out;
	else
		free(out);
	return result;
}

int pl_xlsx_pin_epoch_zero(const char *path, struct pl_error *err)
{
	char *buf = NULL;
	unsigned char *out = NULL;
	size_t len, n;
	FILE *fp;
	int rc = pl_file_read(path, PL_RENDER_READ_MAX, &buf, &len, err);

	if (rc != 0)
		return rc;
	n = pin_zip((const unsigned char *)buf, len, &out);
	free(buf);
	if (n == 0)
		return pl_error_set(err, PL_EIO, "cannot set the creation time of '%s' to "
		                                 "SOURCE_DATE_EPOCH 0", path);
	fp = fopen(path, "wb");
	if (!fp || fwrite(out, 1, n, fp) != n || fflush(fp) != 0)
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (fp && fclose(fp) != 0 && rc == 0)
		rc = pl_error_set(err, PL_EIO, "cannot write '%s': %s", path, strerror(errno));
	free(out);
	return rc;
}

