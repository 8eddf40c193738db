#!/usr/bin/env python3
"""Independent check for ontology_test.go: lists the IRIs that the mcp building block's context.jsonld
produces (term @id and @type values, CURIEs expanded, jrpc = http://json-rpc.org/ontology#) which neither
mcp.ttl nor the json-rpc ontology declares, ignoring the rdf, rdfs, owl and xsd namespaces.

It parses Turtle with rapper (raptor2-utils), not with the Go code under test, and writes one IRI a line:

    python3 mcp_undeclared.py ../../../shared/reference/ogc-mcp-bblocks/_sources > mcp_undeclared.txt
"""
import json
import os
import re
import subprocess
import sys

RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'
RDFS = 'http://www.w3.org/2000/01/rdf-schema#'
OWL = 'http://www.w3.org/2002/07/owl#'
XSD = 'http://www.w3.org/2001/XMLSchema#'
LINE = re.compile(r'^(<[^>]*>|_:\S+) <([^>]*)> (<[^>]*>|_:\S+|".*)\s*\.\s*$')


def triples(path):
    out = subprocess.run(['rapper', '-q', '-i', 'turtle', '-o', 'ntriples', path],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            raise SystemExit('unexpected N-Triples line: ' + line)
        yield m.groups()


def declared(paths):
    types = {}
    for path in paths:
        for s, p, o in triples(path):
            if p == RDF + 'type' and s.startswith('<') and o.startswith('<'):
                types.setdefault(s[1:-1], set()).add(o[1:-1])
    classes = {s for s, t in types.items() if t & {OWL + 'Class', RDFS + 'Class'}}
    props = {s for s, t in types.items()
             if t & {OWL + 'ObjectProperty', OWL + 'DatatypeProperty', OWL + 'AnnotationProperty', RDF + 'Property'}}
    individuals = {s for s, t in types.items() if t & (classes | {OWL + 'NamedIndividual'})}
    return classes | props | individuals


def context_iris(path, prefixes):
    ctx = json.load(open(path))['@context']
    prefixes = dict(prefixes)
    prefixes.update({k: v for k, v in ctx.items() if isinstance(v, str) and not k.startswith('@')})
    out = []
    for term, definition in ctx.items():
        if term.startswith('@') or not isinstance(definition, dict):
            continue
        for key in ('@id', '@type'):
            value = definition.get(key, '@')
            if value.startswith('@') or ':' not in value:
                continue
            prefix, rest = value.split(':', 1)
            out.append(prefixes[prefix] + rest if prefix in prefixes and not rest.startswith('//') else value)
    return out


def main():
    src = sys.argv[1]
    known = declared([os.path.join(src, 'mcp', 'ontology', 'mcp.ttl'), os.path.join(src, 'json-rpc', 'ontology.ttl')])
    iris = context_iris(os.path.join(src, 'mcp', 'context.jsonld'), {'jrpc': 'http://json-rpc.org/ontology#'})
    for iri in sorted({i for i in iris if not i.startswith((RDF, RDFS, OWL, XSD)) and i not in known}):
        print(iri)


main()
