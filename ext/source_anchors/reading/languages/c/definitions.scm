; C definitions. A function's name is found through its declarators in Python (cfamily.py): the
; query cannot follow a chain of pointer declarators of any length.
(function_definition) @definition.function
(declaration) @declaration.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
