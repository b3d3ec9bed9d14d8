/* signature.h: a method pattern's parameter list written as Java source
 * ("Shop.handle(int, String)"), made a JVM descriptor pattern.
 *
 * Contract: a method pattern that ends with ')' has no return type, which a
 * descriptor needs: such a list is read as Java source. Types are separated
 * by commas (spaces around them allowed): the primitives (int, long,
 * boolean, byte, char, short, float, double), class names qualified
 * ("java.lang.String", "java/lang/String") or simple ("String": any class of
 * that name, "L*String;"), nested with '$', with '*' as anywhere else,
 * generic arguments (erased: "List<String>" is "List"), array dimensions
 * "[]" and a last "...". The return type becomes '*'. A list that reads as a
 * descriptor too ("write(I)") is refused as ambiguous, naming both ways.
 * Pure: no allocation, nothing printed.
 */
#ifndef STAPJAVA_SIGNATURE_H
#define STAPJAVA_SIGNATURE_H

#include <stddef.h>
#include <sys/types.h>

/* TEXT[0..LEN), a method pattern with one '(' at OPEN and ')' last, into
 * OUT (OUTLEN bytes, NUL-terminated): its length, or -EINVAL /
 * -ENAMETOOLONG with ERR saying what is wrong and at which offset of TEXT. */
ssize_t signature_source_to_descriptor(const char *text, size_t len, size_t open, char *out,
				       size_t outlen, char *err, size_t errlen);

#endif
