"""The audit's stages, one module each, numbered in the order a sheet goes through them (sheetaudit.pipeline runs
them; each imports only the stages before it, which tests/test_layers.py holds):

    s1_find          the figures' mentions in the Document's segments, in the spellings vendors use
    s2_triage        find's cheap pass over a page's plain text: the reader lays out only pages it may find in
    s3_context       what the sheet is (kind, network role) and each mention's clause
    s4_classify      each mention's tier, scope, direction, technology and model: a Figure
    s5_normalise     values in common units, conventions applied
    s6_certainty     how sure each reading is: stated or inferred, and from what
    s7_find_compute  the accelerator's compute and memory capacity, beside the normalised figures
    s8_checks        the four-step check and the sheet checks: findings, and the questions for the vendor
"""
