/*
 * incsim's core.p4: the declarations the P4_16 language specification puts in the core
 * library. Written for incsim from the specification; the declared names and signatures are
 * the standard ones, so a program that includes <core.p4> also compiles with p4c.
 */

/* p4c's include guard: programs test it (#ifdef _CORE_P4_) to see that core.p4 is in. */
#ifndef _CORE_P4_
#define _CORE_P4_

/* Errors any parser can raise. Programs add their own with more error { ... } blocks. */
error {
    NoError,                /* nothing went wrong */
    PacketTooShort,         /* extract or lookahead needed more bits than the packet has */
    NoMatch,                /* no case of a select matched */
    StackOutOfBounds,       /* a header stack index (or .next) went past the end */
    HeaderTooShort,         /* a variable-size header was given too few bits */
    ParserTimeout,          /* the parser ran out of time */
    ParserInvalidArgument   /* a parser operation got an argument it cannot use */
}

/* The packet being parsed. */
extern packet_in {
    /* Fill hdr from the next bits of the packet and mark it valid. */
    void extract<T>(out T hdr);
    /* Same, for a header whose varbit field is variableFieldSizeInBits long. */
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    /* The next bits of the packet as a T, without consuming them. */
    T lookahead<T>();
    /* Skip sizeInBits bits. */
    void advance(in bit<32> sizeInBits);
    /* The packet length in bytes (not every target knows it). */
    bit<32> length();
}

/* The packet being assembled by a deparser. */
extern packet_out {
    /* Append hdr if it is a valid header; for a struct or stack, each valid member in order. */
    void emit<T>(in T hdr);
}

/* In a parser: stop with toSignal unless check is true. */
extern void verify(in bool check, in error toSignal);

/* Compile-time assertions. */
extern bool static_assert(bool check, string message);
extern bool static_assert(bool check);

/* An action that leaves everything as it is; the usual default action of a table. */
@noWarn("unused")
action NoAction() {}

/* Ways a table can match a key field; architectures may add more. */
match_kind {
    exact,      /* equal to the entry's value */
    ternary,    /* equal under the entry's mask */
    lpm         /* longest prefix of the entry's value */
}

#endif /* _CORE_P4_ */
