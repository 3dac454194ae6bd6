/*
 * hash.c — sha256 of input bytes through OpenSSL libcrypto's EVP interface.
 *
 * The import pipeline hashes every input file so that the same bytes are
 * stored once and reports can list the hash of each input.
 */
#include "core/hash.h"

#include <openssl/evp.h>

#include "core/error.h"

int pl_sha256_hex(const void *buf, size_t len, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
		hex[0] = '\0';
		return PL_ENOMEM;
	}
	for (unsigned i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 0xf];
	}
	hex[64] = '\0';
	return 0;
}
