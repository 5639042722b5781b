; C definitions. A function's name is found through its declarators in Python (cfamily.py): the
; query cannot follow a chain of pointer declarators of any length.
(function_definition) @definition.function
(declaration) @declaration.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
; A typedef of a function pointer or an array is named through its declarator (cfamily.py).
(type_definition
  declarator: [(function_declarator) (pointer_declarator) (array_declarator)]) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
; A function-like macro whose body holds a comment the grammar cannot read past: an error that
; starts with the #define, its name and its parameters (its lines are spliced, cfamily.py).
(ERROR . "#define" . (identifier) @name . (preproc_params)) @definition.macro
