// Ebb: this file is LuaJ 3.0.1's org.luaj.vm2.LuaError (MIT licence, below) with these changes:
// getMessage() joins position and message with ": " as Lua 5.1 (and so Redis) does
// ("user_script:1: boom"), where LuaJ writes "user_script:1 boom", and it drops the line break LuaJ
// puts before a traceback when the traceback is empty (Ebb's scripts have none); positionless() and
// bareMessage() let Scripting word unplaced errors as Redis does; getMessage() takes Lua 5.1's text
// of a VM error that ScriptWatchdog.traceback put after the mark "\n\0", and the position of
// error(msg, level) put after "\n\1". Like LuaDouble, it shadows
// the class in the luaj-jse jar; keep it in step with the pinned luaj-jse version.
/*******************************************************************************
* Copyright (c) 2009-2011 Luaj.org. All rights reserved.
*
* Permission is hereby granted, free of charge, to any person obtaining a copy
* of this software and associated documentation files (the "Software"), to deal
* in the Software without restriction, including without limitation the rights
* to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
* copies of the Software, and to permit persons to whom the Software is
* furnished to do so, subject to the following conditions:
*
* The above copyright notice and this permission notice shall be included in
* all copies or substantial portions of the Software.
* 
* THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
* IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
* FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
* AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
* LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
* OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
* THE SOFTWARE.
******************************************************************************/
package org.luaj.vm2;


/**
 * RuntimeException that is thrown and caught in response to a lua error. 
 * <p>
 * {@link LuaError} is used wherever a lua call to {@code error()} 
 * would be used within a script.
 * <p>
 * Since it is an unchecked exception inheriting from {@link RuntimeException},
 * Java method signatures do notdeclare this exception, althoug it can 
 * be thrown on almost any luaj Java operation.
 * This is analagous to the fact that any lua script can throw a lua error at any time.
 * <p> 
 * The LuaError may be constructed with a message object, in which case the message
 * is the string representation of that object.  getMessageObject will get the object
 * supplied at construct time, or a LuaString containing the message of an object 
 * was not supplied.
 */
public class LuaError extends RuntimeException {
	private static final long serialVersionUID = 1L;
	
	protected int level;
	
	protected String fileline;
	
	protected String traceback;
	
	protected Throwable cause;

	private LuaValue object;
	
	/** Get the string message if it was supplied, or a string 
	 * representation of the message object if that was supplied.
	 */
	public String getMessage() {
		if (traceback != null) { // Ebb: without a Lua traceback, drop the line break LuaJ puts before it
			int reworded = traceback.indexOf("\n\u0000"); // Ebb: Lua 5.1's text from ScriptWatchdog.traceback
			if (reworded >= 0 && fileline != null)
				return fileline + ": " + traceback.substring(reworded + 2);
			int placed = traceback.indexOf("\n\u0001"); // Ebb: error(msg, level)'s position, if any
			if (placed >= 0) {
				String where = traceback.substring(placed + 2);
				String m = super.getMessage();
				return where.isEmpty() ? m : where + ": " + m;
			}
			return traceback.endsWith("\n") ? traceback.substring(0, traceback.length() - 1) : traceback;
		}
		String m = super.getMessage();
		if (m == null)
			return null;
		if (fileline != null)
			return fileline + ": " + m; // Ebb: Lua's "chunk:line: message" (LuaJ writes a space only)
		return m;
	}

	/** Ebb: whether Lua 5.1 gives this error no position: error(v, 0), error(v, 2) from the main
	 * chunk, error(nil), or an error value that is neither a string nor a number nor a table. */
	public boolean positionless() {
		return level == 0 || (object == null && super.getMessage() == null)
				|| (traceback != null && traceback.endsWith("\n\u0001"))
				|| (level >= 2 && traceback == null) // error(msg, 2) in a tail call from the main chunk
				|| (object != null && !object.isstring() && !object.istable());
	}

	/** Ebb: whether this is error(msg, level) with a level of 2 or more, placed by ScriptWatchdog. */
	public boolean leveled() {
		return traceback != null && traceback.contains("\n\u0001");
	}

	/** Ebb: the message without position or traceback; "nil" for error(nil). */
	public String bareMessage() {
		String m = super.getMessage();
		return m == null ? "nil" : m;
	}

	/** Get the LuaValue that was provided in the constructor, or 
	 * a LuaString containing the message if it was a string error argument.
	 * @return LuaValue which was used in the constructor, or a LuaString
	 * containing the message.
	 */
	public LuaValue getMessageObject() {
		if (object != null) return object;
		String m = getMessage();
		return m != null ? LuaValue.valueOf(m): null;
	}
	
	/** Construct LuaError when a program exception occurs. 
	 * <p> 
	 * All errors generated from lua code should throw LuaError(String) instead.
	 * @param cause the Throwable that caused the error, if known.  
	 */
	public LuaError(Throwable cause) {
		super( "vm error: "+cause );
		this.cause = cause;
		this.level = 1;
	}

	/**
	 * Construct a LuaError with a specific message.  
	 *  
	 * @param message message to supply
	 */
	public LuaError(String message) {
		super( message );
		this.level = 1;
	}		

	/**
	 * Construct a LuaError with a message, and level to draw line number information from.
	 * @param message message to supply
	 * @param level where to supply line info from in call stack
	 */
	public LuaError(String message, int level) {
		super( message );
		this.level = level;
	}	

	/**
	 * Construct a LuaError with a LuaValue as the message object,
	 * and level to draw line number information from.
	 * @param message_object message string or object to supply
	 */
	public LuaError(LuaValue message_object) {
		super( message_object.tojstring() );
		this.object = message_object;
		this.level = 1;
	}	


	/** 
	 * Get the cause, if any.
	 */
	public Throwable getCause() {
		return cause;
	}


}
